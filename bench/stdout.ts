/**
 * Keeps a bench's standard output for its JSON document: console.log/info/debug (the engines' and the mail's
 * `[mail] order …` lines included) go to standard error, and so do the local function instances' own logs
 * (FUNCTION_LOGS_TO_STDERR). Returns the one writer of the document.
 */
export function jsonOnlyStdout(): (document: unknown) => void {
  const write = process.stdout.write.bind(process.stdout);
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  process.env.FUNCTION_LOGS_TO_STDERR = '1';
  return (document) => {
    write(`${JSON.stringify(document, null, 2)}\n`);
  };
}
