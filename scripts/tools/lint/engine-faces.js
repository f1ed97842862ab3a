import path from 'node:path';

/**
 * ESLint rule `local/engine-faces`: an engine (engines/<room>/) is used through its public face, engines/<room>/index.ts.
 * Imports past it are refused from anywhere else (server code, bench, scripts, other engines, the tests of other
 * rooms); the room's own files and its own tests (tests/<kind>/<room>/…) may reach inside. Relative specifiers
 * are resolved against the importing file, so `../image/fill/heal` from engines/video is caught as well as
 * `../../engines/image/fill/heal` from netlify/lib.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

const repoPath = (absolute) => path.relative(ROOT, absolute).split(path.sep).join('/');

/** The room a path lies deep inside (past its index), or null. `engines/image` and `engines/image/index.ts` are the face. */
function deepRoom(target) {
  const parts = target.split('/');
  if (parts[0] !== 'engines' || parts.length < 3) return null;
  if (parts.length === 3 && /^index(\.ts)?$/.test(parts[2])) return null;
  return parts[1];
}

function ownRoom(file) {
  const parts = file.split('/');
  if (parts[0] === 'engines' && parts.length > 2) return parts[1];
  if (parts[0] === 'tests' && parts.length > 3) return parts[2];
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Use an engine through engines/<room>/index.ts, never past it' },
    messages: {
      deep: "'{{spec}}' reaches past the {{room}} engine's public face: import from '{{face}}' (engines/{{room}}/index.ts) and export what you need there.",
    },
    schema: [],
  },
  create(context) {
    const file = repoPath(context.filename);
    const own = ownRoom(file);
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = repoPath(path.resolve(path.dirname(context.filename), spec));
      const room = deepRoom(target);
      if (!room || room === own) return;
      let face = path.relative(path.dirname(context.filename), path.join(ROOT, 'engines', room)).split(path.sep).join('/');
      if (!face.startsWith('.')) face = `./${face}`;
      context.report({ node, messageId: 'deep', data: { spec, room, face } });
    };
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      TSImportType: (node) => {
        const literal = node.argument?.literal ?? node.argument;
        if (literal?.type === 'Literal') check(literal, literal.value);
      },
      // vi.mock('…') and vi.importActual('…') name modules too.
      CallExpression: (node) => {
        const callee = node.callee;
        const first = node.arguments[0];
        if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'vi' && first?.type === 'Literal') check(first, first.value);
      },
    };
  },
};
