// Vite's `?inline` import of a file as a base64 data URL: how the Worker tests
// (which run inside workerd and cannot read the file system) load the
// community character cards of test-fixtures/cards/.
declare module "*.png?inline" {
  const dataUrl: string;
  export default dataUrl;
}
