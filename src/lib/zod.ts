import { z } from 'zod';

// The pages' Content-Security-Policy allows no eval, so zod must not compile parsers with `Function`: even
// its feature probe is reported by the browser as a policy violation. Shared schemas import z from here.
z.config({ jitless: true });

export { z };
