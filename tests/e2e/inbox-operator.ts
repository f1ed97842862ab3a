/** The one address that may sign in to the team's inbox during the browser run (OPERATOR_EMAILS, global-setup.ts). */
export const E2E_OPERATOR = 'team@lumora.test';
