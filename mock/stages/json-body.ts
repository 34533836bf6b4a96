// What counts as a JSON body: application/json, or a +json type, with any parameters. Shared by
// the ticket operation and the token endpoint.

export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type === 'application/json' || (type !== undefined && /^application\/[a-z0-9.+-]+\+json$/.test(type));
}

export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

export function isFormMediaType(contentType: string | undefined): boolean {
  return mediaType(contentType) === FORM_MEDIA_TYPE;
}

function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase();
}
