import { listFunctions } from '@netlify/zip-it-and-ship-it';

/** A route as Netlify's function tooling describes it (from the function's own `config.path`). */
export interface FunctionRoute {
  pattern: string;
  literal?: string;
  expression?: string;
  methods: string[];
  prefer_static?: boolean;
}

/** One function of netlify/functions, as the local server needs it. */
export interface LocalFunction {
  name: string;
  mainFile: string;
  routes: FunctionRoute[];
  excludedRoutes: FunctionRoute[];
  /** `-background` functions answer 202 at once and run on (Netlify: up to 15 minutes). */
  background: boolean;
  /** Cron expression of a scheduled function (in-source `config.schedule`). */
  schedule?: string;
}

export interface FunctionMatch {
  fn: LocalFunction;
  /** The route that matched; undefined for the default `/.netlify/functions/{name}` address. */
  route?: FunctionRoute;
}

/** Lists the functions with Netlify's own parser, so routes, schedules and background mode read as on deploy. */
export async function listLocalFunctions(functionsDir: string): Promise<LocalFunction[]> {
  const found = await listFunctions([functionsDir], { parseISC: true });
  return found
    .filter((f) => f.runtime === 'js')
    .map((f) => ({
      name: f.name,
      mainFile: f.mainFile,
      routes: (f.routes ?? []) as FunctionRoute[],
      excludedRoutes: (f.excludedRoutes ?? []) as FunctionRoute[],
      background: f.name.endsWith('-background'),
      schedule: f.schedule,
    }));
}

const DEFAULT_ADDRESS = /^\/\.netlify\/(?:functions|builders)\/([^/]+)/;

function routeMatches(route: FunctionRoute, path: string, method?: string): boolean {
  if (method && route.methods.length > 0 && !route.methods.includes(method)) return false;
  if (route.literal !== undefined) return path === route.literal;
  return route.expression !== undefined && new RegExp(route.expression).test(path);
}

/**
 * The function that owns a path, matched the way Netlify does: a function with a `config.path` answers
 * only there (case-insensitive, trailing slash ignored, optional method list, `excludedPath` honoured);
 * one without answers at `/.netlify/functions/{name}`.
 */
export function matchFunction(functions: readonly LocalFunction[], pathname: string, method: string): FunctionMatch | undefined {
  const byDefault = DEFAULT_ADDRESS.exec(pathname);
  if (byDefault) {
    const fn = functions.find((f) => f.name === byDefault[1]);
    return fn && fn.routes.length === 0 ? { fn } : undefined;
  }
  const path = (pathname !== '/' && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname).toLowerCase();
  for (const fn of functions) {
    const route = fn.routes.find((r) => routeMatches(r, path, method));
    if (route && !fn.excludedRoutes.some((r) => routeMatches(r, path))) return { fn, route };
  }
  return undefined;
}
