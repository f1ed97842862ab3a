import { z } from 'zod';

/**
 * zod for the schemas the islands run in the browser. The pages' Content-Security-Policy forbids eval, so
 * zod's compiled fast path is turned off: otherwise its first parse probes for it with `Function('')`, which
 * the browser blocks and reports as a policy violation.
 */
z.config({ jitless: true });

export { z };
