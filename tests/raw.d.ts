/** A file's text, imported with Vite's `?raw` (e.g. public/_headers). */
declare module '*?raw' {
  const text: string;
  export default text;
}
