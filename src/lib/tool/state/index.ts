/**
 * The tool's state and actions, by tab (the cart's are in ../../cart.ts, a package's in ../package-state.ts, a
 * batch's in ../batch-state.ts). Islands read the stores with `useStore` and call the actions; the actions talk
 * to the server through ../api.ts, toast, and announce in the tool's live region. Importing from here loads both
 * tabs, so the image tab's edits follow every result it is given (./image.ts).
 */
export * from './shared';
export * from './image';
export * from './video';
