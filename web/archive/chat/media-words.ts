import { MessageMediaTypeLabels } from '../../../generated/archive/labels';

/** A media type in the document's words, "Media" for one it does not name. */
export const mediaWords = (type: string) => MessageMediaTypeLabels[type] ?? 'Media';
