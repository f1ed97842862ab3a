import type { Config } from '@netlify/functions';
import { createModelsHandler } from '../lib/chat/models-handler';
import { withErrors } from '../lib/http';

/** The agent hub's model list and whether chat is configured (never the key itself). */
export default withErrors(createModelsHandler());

export const config: Config = { path: '/api/chat/models' };
