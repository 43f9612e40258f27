/** Every emoji's short name and Zulip code, "name code;name code;…" (built by vite.config.mts). */
declare module 'virtual:emoji-names' {
  const names: string;
  export default names;
}
