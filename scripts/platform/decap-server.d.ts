// decap-server ships JavaScript only: the one entry point the dev server uses.
declare module 'decap-server/dist/middlewares.js' {
  import type { Express } from 'express';

  const middlewares: {
    /** Registers Decap's local file system API (`POST /api/v1`) on `app`, for the folder GIT_REPO_DIRECTORY (default: cwd). */
    registerLocalFs(app: Express, options?: { logLevel?: string }): Promise<void>;
  };
  export default middlewares;
}
