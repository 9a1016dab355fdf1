declare global {
  interface Window {
    EXCALIDRAW_ASSET_PATH?: string | string[];
  }
}

const ASSET_PATH = '/excalidraw-assets/';
const CDN = 'https://esm.sh/';

// Excalidraw's fonts are served by this server (copied into the build by vite.config.ts), never
// by a public CDN. Excalidraw computes its font URLs when its module is evaluated, so this module
// must be imported before it.
window.EXCALIDRAW_ASSET_PATH = ASSET_PATH;

// Excalidraw still lists its CDN after our URL in every font face's sources, and Chromium checks
// each source against the CSP (font-src 'self'), logging a refusal per face even though ours
// loads. The CDN sources are taken out of the faces Excalidraw makes.
const NativeFontFace = window.FontFace;
if (NativeFontFace && !(NativeFontFace as { parleyPatched?: boolean }).parleyPatched) {
  class SelfHostedFontFace extends NativeFontFace {
    static parleyPatched = true;
    constructor(family: string, source: string | BufferSource, descriptors?: FontFaceDescriptors) {
      const own =
        typeof source === 'string' && source.includes(CDN)
          ? source
              .split(/,\s*(?=url\()/)
              .filter((s) => !s.includes(CDN))
              .join(', ')
          : source;
      super(family, own, descriptors);
    }
  }
  window.FontFace = SelfHostedFontFace;
}

export {};
