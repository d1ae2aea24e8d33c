// `import text from './file?raw'`: a file's text, bundled by scripts/build.mjs (and by vitest).
declare module '*?raw' {
  const text: string;
  export default text;
}
