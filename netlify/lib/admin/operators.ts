import { emailSchema } from '../../../src/lib/email-schema';

/**
 * The team: the addresses in OPERATOR_EMAILS (comma-separated), compared without regard to case. Read on every
 * request, so removing an address signs that person out at once. Unset, nobody can sign in to the inbox.
 */
type Env = Record<string, string | undefined>;

export function operatorEmails(env: Env = process.env): Set<string> {
  return new Set(
    (env.OPERATOR_EMAILS ?? '')
      .split(',')
      .map((a) => a.trim().toLowerCase())
      .filter((a) => a && emailSchema.safeParse(a).success),
  );
}

export const isOperator = (email: string, env: Env = process.env) => operatorEmails(env).has(email.trim().toLowerCase());
