/** JSON.parse that yields undefined instead of throwing on a malformed body. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
