import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from '../../../engines/image';

/**
 * An uploaded photo as the site keeps and shows it: turned upright by its EXIF orientation first, then
 * written without any metadata (EXIF with GPS position and camera, XMP, IPTC, comments), the colour profile
 * kept. A phone photo's EXIF says where it was taken; nobody who gets a link to the original should learn
 * that. Re-encoded close to losslessly: JPEG at quality 95 without chroma subsampling, PNG, LZW TIFF.
 */
export async function withoutMetadata(bytes: Buffer, format: 'jpeg' | 'png' | 'tiff'): Promise<Buffer> {
  const upright = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).rotate().keepIccProfile();
  if (format === 'jpeg') return upright.jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer();
  if (format === 'png') return upright.png().toBuffer();
  return upright.tiff({ compression: 'lzw' }).toBuffer();
}
