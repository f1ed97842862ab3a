/**
 * `npm run doctor`: the deploy check (netlify/lib/doctor.ts) with this shell's environment — run it with the
 * variables you give Netlify (e.g. `netlify env:list --plain > .env.deploy; set -a; . ./.env.deploy; npm run doctor`).
 * It connects to the database with the configured TLS, reads the Supabase key's kind and checks each hosted model
 * against its live input schema. Prints what is fine, then one sentence per problem with its fix; exits 1 when there
 * is a problem, 0 otherwise.
 */
import { runDoctor } from '../../netlify/lib/doctor';

const { problems, notes } = await runDoctor(process.env);
for (const note of notes) console.log(`ok: ${note}`);
if (problems.length) {
  console.log(`\n${problems.length} problem${problems.length > 1 ? 's' : ''}:`);
  for (const problem of problems) console.log(`- ${problem}`);
  process.exitCode = 1;
} else {
  console.log('\nNo problems found.');
}
