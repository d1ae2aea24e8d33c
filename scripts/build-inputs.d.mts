export function buildInputsDigest(root: string): string;
export const DIGEST_FILE: string;
