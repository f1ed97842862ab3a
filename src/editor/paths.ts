/** Where the content editor lives on the site (the page, its bundle, its sign-in routes, the local file API). */
export const EDITOR_PATH = '/admin';
/** The editor's browser bundle: built into dist/ by the build, served from memory by the dev server. */
export const EDITOR_BUNDLE_PATH = '/admin/editor.js';
/** GitHub sign-in: Decap opens `{origin}/admin/auth` in a pop-up; GitHub sends the person back to the callback. */
export const AUTH_PATH = '/admin/auth';
export const CALLBACK_PATH = '/admin/callback';
/** The dev server's file API (Decap's proxy protocol, served by decap-server); never part of a build. */
export const LOCAL_API_PATH = '/admin/api/v1';
