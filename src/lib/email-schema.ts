import { z } from './zod';
import { MSG } from './messages';

/** An e-mail address as every form and the checkout accept it (trimmed; at most 320 characters). */
export const emailSchema = z.string().trim().max(320, MSG.invalidEmail).pipe(z.email(MSG.invalidEmail));
