import { CUSTOM_BACKGROUND_LIMITS, BACKGROUND_MESSAGES } from '@parley/protocol';
import sharp from 'sharp';
import { HttpError } from '../../http/errors.js';
import { SNIFF_BYTES, sniffMimeType } from '../files/sniff.js';

/** Images larger than this many pixels are refused before decoding (decompression bombs). */
const MAX_INPUT_PIXELS = 40_000_000;

export interface ReencodedImage {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Turns an uploaded picture into the one we store and serve: the type is read from the bytes
 * (never the name or the client's claim), then sharp decodes it, applies the EXIF orientation,
 * fits it into 1920x1080, flattens transparency and writes a fresh JPEG without metadata. Nothing
 * of the upload is served as it came.
 */
export async function reencodeBackground(bytes: Buffer): Promise<ReencodedImage> {
  const type = sniffMimeType(bytes.subarray(0, SNIFF_BYTES));
  if (!CUSTOM_BACKGROUND_LIMITS.types.includes(type)) {
    throw new HttpError(415, BACKGROUND_MESSAGES.notAnImage);
  }
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'error',
      animated: false,
    })
      .rotate()
      .resize(CUSTOM_BACKGROUND_LIMITS.maxWidth, CUSTOM_BACKGROUND_LIMITS.maxHeight, {
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: '#101820' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    // A truncated or corrupt file, or one past the pixel limit: the magic number lied.
    throw new HttpError(415, 'The image could not be read. Upload a JPEG, PNG, WebP or GIF picture.');
  }
}
