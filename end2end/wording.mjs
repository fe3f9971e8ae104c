// The wording rules of the team's French (issue 29), applied to the text a
// person reads on a page. Used by wording.test.mjs; not a test file itself.
//
// Each rule names what it found, so a failure says page, rule and text.
// The list of stored keys comes from wording-keys.json, which a Rust test
// (app/src/fr/wording_keys.rs) keeps in step with the label tables.

import { readFileSync } from 'node:fs';

const KEYS_FILE = JSON.parse(readFileSync(new URL('./wording-keys.json', import.meta.url), 'utf8'));

/** key → the families it belongs to (`soiree` → `event_types`). */
export function keyFamilies(extra = {}) {
  const families = new Map();
  for (const [family, keys] of Object.entries({ ...KEYS_FILE.keys, ...extra })) {
    for (const key of keys) families.set(key, [...(families.get(key) ?? []), family]);
  }
  return families;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NOT_WORD_BEFORE = "(?<![\\p{L}\\p{N}_'’-])";
const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}_-])';

// Text that is data of its own and reads fine as it is: e-mail addresses,
// web addresses and request references (« D-2025-00043 », copies
// « D-2025-00043-BIS »). They are blanked (same length, so excerpts still
// point at the right place) before the rules run.
const DATA = [
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  /\b(?:https?:\/\/|www\.)[^\s«»"]+/g,
  /\b[A-Z]{1,4}-\d{4}-\d{2,}(?:-[A-Z]+)*\b/g,
];

// Domain endings after a dot (« reciprok.fr ») are not dotted keys.
const DOMAINS = new Set(['fr', 'com', 'org', 'net', 'eu', 'io', 'paris']);

// Words that stay the same in the plural: « 1 mois » agrees.
const INVARIABLE = new Set([
  // Units: « 1 ms », « 0 ms ».
  'ms',
  'fois', 'mois', 'prix', 'choix', 'voix', 'bras', 'jus', 'repas', 'cas', 'temps', 'pays', 'corps',
  'avis', 'colis', 'poids', 'dos', 'fils', 'anglais', 'français', 'relais', 'palais', 'accès',
  'succès', 'procès', 'concours', 'cours', 'discours', 'secours', 'parcours', 'rendez-vous', 'tennis',
  'bus', 'plus', 'moins', 'sous', 'dans', 'vers', 'après', 'depuis', 'jours', 'heures', 'ans',
]);

const ENGINEERING = [
  'score', 'scores', 'similarité', 'similarités', 'similarity', 'embedding', 'embeddings', 'token', 'tokens',
  'SQL', 'null', 'undefined', 'NaN', 'debug', 'slug', 'slugs', 'enum', 'JSON', 'payload', 'vector', 'fts',
  'recency', 'offset', 'timestamp', 'id',
];

// Phrases the issue found and the team does not say.
const JARGON = ['lu par les règles', 'indexée par le sens', 'indexé par le sens', 'auteur inconnu', 'Heure (UTC)'];

function rules(families) {
  const keys = [...families.keys()].sort((a, b) => b.length - a.length).map(escape);
  return [
    {
      name: 'wrapper tag',
      re: /<\/?[A-Za-z][\w:-]*(?:\s[^<>]*)?\/?>/g,
    },
    {
      name: 'dotted key',
      re: /(?<![\p{L}\p{N}_.@-])[a-z]+(?:_[a-z]+)*\.([a-z]+(?:_[a-z]+)*)(?![\p{L}\p{N}_])/gu,
      keep: (m) => !DOMAINS.has(m[1]),
    },
    {
      name: 'snake_case word',
      re: /(?<![\p{L}\p{N}])[a-z0-9]+(?:_[a-z0-9]+)+(?![\p{L}\p{N}])/gu,
    },
    {
      name: 'raw key',
      re: keys.length ? new RegExp(`${NOT_WORD_BEFORE}(?:${keys.join('|')})${NOT_WORD_AFTER}`, 'gu') : null,
      detail: (m) => `(${families.get(m[0]).join(', ')})`,
    },
    {
      name: 'unformatted number',
      // 4+ digits in a row, not part of a grouped number or a decimal.
      re: /(?<![\p{N}\u202f\u00a0,.:/-])\d{4,}(?![\p{N}])/gu,
      keep: (m, text) => {
        const n = m[0];
        if (n.length === 4 && Number(n) >= 1900 && Number(n) <= 2100) return false; // a year
        // A postal code (« 75008 », « 75008 Paris »), unless it counts something (« 12000 lieux »).
        if (n.length === 5 && !/^[ \u00a0]*[a-zàâçéèêëîïôûùüÿœ€%]/.test(text.slice(m.index + 5))) return false;
        return true;
      },
    },
    {
      name: 'thousands not grouped with U+202F',
      re: /(?<![\p{N}\u202f ])\d{1,3}(?:[\u00a0 ]\d{3})+(?![\p{N}])/gu,
      // « 2 635 » with a plain or no-break space; « 01 42 12 » phone numbers do not match (groups of 3).
      keep: (m) => /\d\u00a0\d/.test(m[0]),
    },
    {
      name: 'long decimal (coordinates?)',
      re: /\d+,\d{4,}/g,
    },
    {
      // fr.rs writes « 1 km », never « 1,0 km »: this one came from elsewhere.
      name: 'decimal « ,0 » before a unit',
      re: /(?<![\p{N},])\d+,0(?=[\s\u00a0\u202f]?(?:km|m|€|%)(?![\p{L}]))/gu,
    },
    {
      name: 'decimal point',
      re: /(?<![\p{N}.\p{L}])\d+\.\d+(?![.\p{N}])/gu,
    },
    {
      name: 'ISO date or UTC time',
      re: /(?<![\w-])(?:\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}\S*)?|UTC|GMT)(?![\w-])/g,
    },
    {
      name: 'internal id instead of a reference',
      re: /\b(?:demande|catalogue|conversation|proposition)\s+n°\s*\d+/giu,
    },
    {
      name: 'engineering word',
      re: new RegExp(`(?<![\\p{L}\\p{N}_])(?:${ENGINEERING.map(escape).join('|')})(?![\\p{L}\\p{N}_])`, 'gu'),
    },
    {
      name: 'jargon',
      re: new RegExp(JARGON.map(escape).join('|'), 'giu'),
    },
    {
      name: '« tu » instead of « vous »',
      // « tu », « ton », « t'as »… (never inside a word: « tutoyer », « Tuileries »).
      re: /(?<![\p{L}'’-])(?:(?:[Tt]u|toi|ton|ta|tes)(?![\p{L}'’-])|[Tt][’'](?=\p{L}))/gu,
    },
    {
      name: 'agreement',
      re: /(?<![\p{N}\u202f\u00a0,.])\b[01][ \u00a0]+(\p{L}+[sx])(?![\p{L}])/gu,
      keep: (m) => !INVARIABLE.has(m[1].toLowerCase()),
    },
  ];
}

function blankData(text) {
  let out = text;
  for (const re of DATA) out = out.replace(re, (m) => ' '.repeat(m.length));
  return out;
}

function excerpt(text, index, length) {
  const from = Math.max(0, index - 40);
  const to = Math.min(text.length, index + length + 40);
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`.replace(/\s+/g, ' ').trim();
}

/**
 * Every breach of the rules in `text`: `{ rule, found, excerpt }`, one per
 * distinct (rule, found) pair. `extraKeys` adds families read at run time
 * (the pools' slugs of the demo).
 */
export function findProblems(text, extraKeys = {}) {
  const families = keyFamilies(extraKeys);
  const clean = blankData(text);
  const seen = new Set();
  const problems = [];
  for (const rule of rules(families)) {
    if (!rule.re) continue;
    for (const m of clean.matchAll(rule.re)) {
      if (rule.keep && !rule.keep(m, clean)) continue;
      const id = `${rule.name}\u0000${m[0]}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const detail = rule.detail ? ` ${rule.detail(m)}` : '';
      problems.push({ rule: `${rule.name}${detail}`, found: m[0], excerpt: excerpt(text, m.index, m[0].length) });
    }
  }
  return problems;
}

/**
 * The text a person reads on the page: the body's rendered text, the
 * document's title, and the titles, placeholders, labels and alternative
 * texts of its elements (each on its own line).
 */
export async function pageText(page) {
  return page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[title], [placeholder], [aria-label], img[alt]')) {
      for (const attr of ['title', 'placeholder', 'aria-label', 'alt']) {
        const value = el.getAttribute(attr);
        if (value) parts.push(value);
      }
    }
    return parts.join('\n');
  });
}

/** The page patterns of `routes::PAGES` (`/demandes/:id`…), read from the source. */
export function routePatterns() {
  const source = readFileSync(new URL('../app/src/routes.rs', import.meta.url), 'utf8');
  const table = source.slice(source.indexOf('pub const PAGES'));
  return [...table.slice(0, table.indexOf('];')).matchAll(/\("(\/[^"]*)",\s*Access::/g)].map((m) => m[1]);
}

/** Whether `path` is a page of `pattern` (`:id` matches one segment). */
export function matchesPattern(pattern, path) {
  const p = pattern.split('/');
  const q = (path.length > 1 ? path.replace(/\/+$/, '') : path).split('/');
  return p.length === q.length && p.every((seg, i) => (seg.startsWith(':') ? q[i] !== '' : seg === q[i]));
}
