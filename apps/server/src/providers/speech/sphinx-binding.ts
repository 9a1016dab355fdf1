import koffi from 'koffi';

/**
 * The pocketsphinx 0.8 ("5prealpha") C API that Debian 12 ships (libpocketsphinx.so.3 over
 * libsphinxbase.so.3), bound with koffi: no compiler, no native addon to build. Only the calls a
 * streaming decoder needs. Every call blocks the calling thread, so this module is loaded in the
 * decoder worker (pocketsphinx-worker.ts), never on the server's event loop.
 */
export const POCKETSPHINX_LIBRARY = 'libpocketsphinx.so.3';
export const SPHINXBASE_LIBRARY = 'libsphinxbase.so.3';

/** Opaque handles (ps_decoder_t *, cmd_ln_t *): only ever passed back to the library. */
export type DecoderHandle = { readonly __brand: 'ps_decoder_t' };
export type ConfigHandle = { readonly __brand: 'cmd_ln_t' };

export interface SphinxApi {
  /** cmd_ln_init(NULL, ps_args(), TRUE, name, value, …, NULL); null when an argument is refused. */
  createConfig(args: readonly string[]): ConfigHandle | null;
  configInt(config: ConfigHandle, name: string): number;
  freeConfig(config: ConfigHandle): void;
  /** ps_init; null when the model cannot be loaded. */
  createDecoder(config: ConfigHandle): DecoderHandle | null;
  freeDecoder(decoder: DecoderHandle): void;
  startUtt(decoder: DecoderHandle): number;
  /** ps_process_raw: 16 kHz mono s16 samples; fullUtt=true decodes them as one whole utterance. */
  processRaw(decoder: DecoderHandle, samples: Int16Array, fullUtt: boolean): number;
  endUtt(decoder: DecoderHandle): number;
  hypothesis(decoder: DecoderHandle): string | null;
  inSpeech(decoder: DecoderHandle): boolean;
  /**
   * The words of the current hypothesis with their frames (10 ms, from the utterance's start),
   * fillers and silences included (`<sil>`, `<s>`, `[NOISE]`): ps_seg_iter / ps_seg_next. During
   * an utterance it is the best path so far; after ps_end_utt, the final one. Absent in stand-ins.
   */
  segments?(decoder: DecoderHandle): Array<{ word: string; startFrame: number; endFrame: number }>;
}

let loaded: SphinxApi | undefined;

/** Throws (with dlopen's message) when either library is missing. Once per thread. */
export function loadSphinx(): SphinxApi {
  loaded ??= bind();
  return loaded;
}

function bind(): SphinxApi {
  // libpocketsphinx links libsphinxbase; loading it explicitly too gives us cmd_ln_* by name.
  const base = koffi.load(SPHINXBASE_LIBRARY);
  const ps = koffi.load(POCKETSPHINX_LIBRARY);
  koffi.opaque('cmd_ln_t');
  koffi.opaque('ps_decoder_t');
  koffi.opaque('arg_t');

  const cmdLnInit = base.func('cmd_ln_t *cmd_ln_init(cmd_ln_t *inout, const arg_t *defn, int strict, ...)');
  const cmdLnInt = base.func('long cmd_ln_int_r(cmd_ln_t *cmdln, const char *name)');
  const cmdLnFree = base.func('int cmd_ln_free_r(cmd_ln_t *cmdln)');
  const psArgs = ps.func('const arg_t *ps_args()');
  const psInit = ps.func('ps_decoder_t *ps_init(cmd_ln_t *config)');
  const psFree = ps.func('int ps_free(ps_decoder_t *ps)');
  const psStartUtt = ps.func('int ps_start_utt(ps_decoder_t *ps)');
  const psProcessRaw = ps.func(
    'int ps_process_raw(ps_decoder_t *ps, const int16_t *data, size_t n_samples, int no_search, int full_utt)',
  );
  const psEndUtt = ps.func('int ps_end_utt(ps_decoder_t *ps)');
  const psGetHyp = ps.func('const char *ps_get_hyp(ps_decoder_t *ps, int32_t *out_best_score)');
  const psGetInSpeech = ps.func('uint8_t ps_get_in_speech(ps_decoder_t *ps)');
  koffi.opaque('ps_seg_t');
  // 5prealpha's ps_seg_iter takes the decoder only; 0.8's also wrote a best score through a
  // second pointer. Passing a real int32 buffer there is safe with either.
  const psSegIter = ps.func('ps_seg_t *ps_seg_iter(ps_decoder_t *ps, _Out_ int32_t *score)');
  const psSegNext = ps.func('ps_seg_t *ps_seg_next(ps_seg_t *seg)');
  const psSegWord = ps.func('const char *ps_seg_word(ps_seg_t *seg)');
  const psSegFrames = ps.func('void ps_seg_frames(ps_seg_t *seg, _Out_ int *sf, _Out_ int *ef)');

  return {
    createConfig(args) {
      // Variadic C: every extra argument carries its type; the list ends with a NULL string.
      const variadic = args.flatMap((a) => ['const char *', a]);
      return cmdLnInit(null, psArgs(), 1, ...variadic, 'const char *', null) as ConfigHandle | null;
    },
    configInt: (config, name) => Number(cmdLnInt(config, name)),
    freeConfig: (config) => void cmdLnFree(config),
    createDecoder: (config) => psInit(config) as DecoderHandle | null,
    freeDecoder: (decoder) => void psFree(decoder),
    startUtt: (decoder) => psStartUtt(decoder) as number,
    processRaw: (decoder, samples, fullUtt) =>
      psProcessRaw(decoder, samples, samples.length, 0, fullUtt ? 1 : 0) as number,
    endUtt: (decoder) => psEndUtt(decoder) as number,
    hypothesis: (decoder) => psGetHyp(decoder, null) as string | null,
    inSpeech: (decoder) => (psGetInSpeech(decoder) as number) !== 0,
    segments(decoder) {
      const out: Array<{ word: string; startFrame: number; endFrame: number }> = [];
      const score = [0];
      // ps_seg_next frees the iterator when it returns NULL at the end.
      for (let seg = psSegIter(decoder, score) as unknown; seg; seg = psSegNext(seg) as unknown) {
        const sf = [0];
        const ef = [0];
        psSegFrames(seg, sf, ef);
        out.push({ word: String(psSegWord(seg)), startFrame: sf[0]!, endFrame: ef[0]! });
      }
      return out;
    },
  };
}

/**
 * Gives freed heap pages back to the system (glibc's malloc_trim). A decoder's ~90 MiB is freed
 * in its worker thread's malloc arena, which glibc otherwise keeps for reuse: a server that had
 * four speakers an hour ago would still hold their memory. No-op where libc has no malloc_trim.
 */
export function trimHeap(): void {
  try {
    koffi.load('libc.so.6').func('int malloc_trim(size_t pad)')(0);
  } catch {
    // not glibc: nothing to do
  }
}

/** Why the libraries cannot be loaded here (dlopen's message), or null when they can. */
export function probeSphinxLibraries(): string | null {
  try {
    koffi.load(SPHINXBASE_LIBRARY);
    koffi.load(POCKETSPHINX_LIBRARY);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
