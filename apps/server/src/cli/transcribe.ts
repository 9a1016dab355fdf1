import { readFile } from 'node:fs/promises';
import type { Config } from '../config.js';
import { createSpeechToText } from '../providers/speech/index.js';

/**
 * `npm run ai -- transcribe FILE [--language CODE]`: prints the text of any audio ffmpeg reads,
 * through the same speech-to-text (provider, configuration) as the server. The detected language
 * goes to stderr so stdout is the text alone.
 */
export async function transcribeCommand(args: string[], config: Config): Promise<number> {
  const files: string[] = [];
  let language: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--language') language = args[++i];
    else files.push(args[i]!);
  }
  if (files.length !== 1 || (args.includes('--language') && !language)) {
    console.error('usage: npm run ai -- transcribe FILE [--language CODE]');
    return 2;
  }
  const [file] = files as [string];

  let audio: Buffer;
  try {
    audio = await readFile(file);
  } catch (err) {
    console.error(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  const { stt, reason } = createSpeechToText(config.ai, { info: (m) => console.error(m) });
  if (!stt) {
    console.error(`speech-to-text is off: ${reason ?? 'unknown reason'}`);
    return 1;
  }
  try {
    const result = await stt.transcribeClip(audio, { language });
    console.error(`${stt.name}, language: ${result.language}`);
    console.log(result.text);
    return 0;
  } catch (err) {
    console.error(`cannot transcribe ${file}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await stt.close();
  }
}
