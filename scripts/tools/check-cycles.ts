/**
 * `npm run check:cycles` (run by `npm test` beside lint): no import cycle between files, nor between folders.
 * Files: madge's graph of every TypeScript file (type imports included), its cycles as madge finds them.
 * Folders: at every level, the sibling folders under one parent (engines/image beside engines/video, netlify/lib/orders
 * beside netlify/lib/mail, bench beside scripts …) must not import each other both ways, directly or round a loop;
 * a folder's own files and its sub-folders may use each other. Exits 1 with each cycle named.
 */
import madge from 'madge';
import path from 'node:path';

const ROOTS = ['engines', 'netlify', 'src', 'scripts', 'bench', 'tests'];

export type Graph = Record<string, string[]>;

/** What `file` is among `dir`'s children: the child folder that holds it, or the file itself when it sits in `dir`; null outside. */
function childOf(dir: string, file: string): { node: string; folder: boolean } | null {
  const prefix = dir ? `${dir}/` : '';
  if (!file.startsWith(prefix)) return null;
  const rest = file.slice(prefix.length).split('/');
  return { node: prefix + rest[0], folder: rest.length > 1 };
}

/** Strongly connected components of more than one node (Tarjan). */
export function loops(edges: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * Cycles between sibling folders, at every level of the tree, each with the imports that close it. A folder reaches
 * another directly or through files that sit beside them (orders → lib/x.ts → mail counts as orders → mail); a
 * folder's own files and its sub-folders may use each other.
 */
export function folderCycles(graph: Graph): { folders: string[]; example: string[] }[] {
  const dirs = new Set<string>(['']);
  for (const file of Object.keys(graph)) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  const cycles: { folders: string[]; example: string[] }[] = [];
  for (const dir of dirs) {
    // Edges among dir's children (folders and files), each with one import that makes it.
    const edges = new Map<string, Set<string>>();
    const witness = new Map<string, string>();
    const folders = new Set<string>();
    for (const [from, targets] of Object.entries(graph)) {
      const a = childOf(dir, from);
      if (!a) continue;
      if (a.folder) folders.add(a.node);
      for (const to of targets) {
        const b = childOf(dir, to);
        if (!b || a.node === b.node) continue;
        if (b.folder) folders.add(b.node);
        if (!edges.has(a.node)) edges.set(a.node, new Set());
        edges.get(a.node)!.add(b.node);
        if (!witness.has(`${a.node}>${b.node}`)) witness.set(`${a.node}>${b.node}`, `${from} → ${to}`);
      }
    }
    // Folder → folder, directly or through a chain of files beside them.
    const reach = new Map<string, Set<string>>();
    const via = new Map<string, string[]>();
    for (const start of folders) {
      const found = new Set<string>();
      const seen = new Set<string>([start]);
      const queue: { node: string; path: string[] }[] = [{ node: start, path: [] }];
      while (queue.length) {
        const { node, path: trail } = queue.shift()!;
        for (const next of edges.get(node) ?? []) {
          if (seen.has(next)) continue;
          seen.add(next);
          const step = [...trail, witness.get(`${node}>${next}`)!];
          if (folders.has(next)) {
            found.add(next);
            via.set(`${start}>${next}`, step);
          } else queue.push({ node: next, path: step });
        }
      }
      reach.set(start, found);
    }
    for (const loop of loops(reach)) {
      const inLoop = new Set(loop);
      const example = loop.flatMap((a) => [...(reach.get(a) ?? [])].filter((b) => inLoop.has(b)).flatMap((b) => via.get(`${a}>${b}`)!));
      cycles.push({ folders: loop, example });
    }
  }
  return cycles;
}

export async function importGraph(root: string): Promise<{ graph: Graph; fileCycles: string[][] }> {
  const result = await madge(ROOTS.map((r) => path.join(root, r)), {
    baseDir: root,
    fileExtensions: ['ts', 'tsx', 'mts'],
    tsConfig: path.join(root, 'tsconfig.json'),
    excludeRegExp: [/node_modules/, /\.d\.ts$/],
  });
  return { graph: result.obj(), fileCycles: result.circular() };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const root = path.resolve(import.meta.dirname, '../..');
  const { graph, fileCycles } = await importGraph(root);
  const folders = folderCycles(graph);
  for (const c of fileCycles) console.error(`file cycle: ${[...c, c[0]].join(' → ')}`);
  for (const c of folders) console.error(`folder cycle: ${c.folders.join(' ⇄ ')}\n  ${c.example.join('\n  ')}`);
  const files = Object.keys(graph).length;
  if (fileCycles.length || folders.length) {
    console.error(`${fileCycles.length} file cycle(s), ${folders.length} folder cycle(s) in ${files} files`);
    process.exit(1);
  }
  console.log(`No import cycle between ${files} files or their folders.`);
}
