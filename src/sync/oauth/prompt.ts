/**
 * What the person must do to authorize, handed to the caller to show (the module prints
 * nothing itself: the CLI decides where text goes). None of it is secret: the URL carries a
 * state and a PKCE challenge, not the verifier; the user code is meant to be typed.
 */
export type AuthorizationPrompt =
  | { kind: 'browser'; url: string; opened: boolean }
  | { kind: 'device'; verification_uri: string; verification_uri_complete?: string; user_code: string; expires_in: number };

export type Prompter = (p: AuthorizationPrompt) => void;
