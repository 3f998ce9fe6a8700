// The Emscripten build of eSpeak NG (npm `espeak-ng`, GPL-3.0-or-later): an
// ES module factory that runs the `espeak-ng` command line once per call.
// Only what offline-speech.ts uses is typed.
declare module "espeak-ng" {
  interface ESpeakNgFS {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
  }
  interface ESpeakNgModule {
    FS: ESpeakNgFS;
  }
  interface ESpeakNgOptions {
    arguments?: string[];
    preRun?: ((module: ESpeakNgModule) => void)[];
    instantiateWasm?: (
      imports: WebAssembly.Imports,
      receive: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => unknown,
    ) => Record<string, never>;
    locateFile?: (path: string, prefix: string) => string;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }
  const ESpeakNg: (options?: ESpeakNgOptions) => Promise<ESpeakNgModule>;
  export default ESpeakNg;
}

// Wrangler (and @cloudflare/vitest-plugin) bundle a `.wasm` import as a
// compiled WebAssembly.Module (Workers may not compile Wasm from bytes).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
