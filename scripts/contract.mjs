// @ts-check
// What the page's scripts and its wasm agree on, written once in www/contract.json (the wasm
// reads it too: crates/sim/src/session/page_contract.rs). The build hands each script its part:
// the first screen's in attributes of its script tag (prerender.mjs), the service worker's in
// its source (service-worker.mjs); the servers and tests import it from here.
import { readFileSync } from 'node:fs';

/**
 * @typedef {{ query: string, remembered: string | null, lang: string }} OpeningCase
 * @typedef {{ languageKey: string, languages: string[], embedYes: string[], hashedName: string, openingLanguage: OpeningCase[] }} PageContract
 */

/** @type {PageContract} */
export const contract = JSON.parse(readFileSync(new URL('../www/contract.json', import.meta.url), 'utf8'));

/// A file name ending in its content's hash (`informer-web-9ebdf31d8ce6fa59_bg.wasm`), the hash
/// its first group.
export const HASHED = new RegExp(contract.hashedName);

/// What the first screen's script reads from its tag's `data-contract`.
export const firstScreenPart = JSON.stringify({
  languageKey: contract.languageKey,
  languages: contract.languages,
  embedYes: contract.embedYes,
});
