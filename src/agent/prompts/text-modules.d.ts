// The prompt texts are imported as text (`import BASE from "./base.md" with { type: "text" }`):
// Bun reads them as strings, and inlines them into the precompiled CLI.
declare module "*.md" {
  const text: string;
  export default text;
}
