// common.js -- what the play page (app.js) and the analysis page
// (analyze.js) share: the API client, the games of the server's registry
// (GET /v1/games: names, aliases, arity, rule texts), the moves of the
// families the page draws and checks itself (the server checks the
// others), positions as exact BigInts, game records, and the analysis
// panels drawn as the seed documents draw them.
//
// Every number a user can make big is a BigInt here and a decimal string on
// the wire; nothing goes through a JavaScript Number.

import {t as T, mark} from './messages.js';

// ------------------------------------------------------------------ DOM

// h('p', {class: 'x', onclick: f}, 'text', child...) makes an element.
export function h(tag, attrs, ...kids) {
  const svg = tag.startsWith('svg:');
  const el = svg
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// ---------------------------------------------------------------- theme

// Light or dark: the system's choice (prefers-color-scheme), until the
// switch in the header says otherwise; its choice is kept in the
// browser's storage for both pages.
const THEME = 'bouton.theme';

function systemDark() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

export function themeSwitch(button) {
  let chosen = null;
  try {
    chosen = localStorage.getItem(THEME);
  } catch (e) {
    chosen = null;
  }
  const apply = () => {
    const dark = chosen ? chosen === 'dark' : systemDark();
    if (chosen) document.documentElement.setAttribute('data-theme', chosen);
    else document.documentElement.removeAttribute('data-theme');
    if (button) {
      button.setAttribute('aria-pressed', dark ? 'true' : 'false');
      // a toggle: its name stays, aria-pressed says whether it is on
      button.title = T(dark ? 'theme.to.light' : 'theme.to.dark');
    }
  };
  if (button) {
    button.addEventListener('click', () => {
      const dark = document.documentElement.getAttribute('data-theme') === 'dark' ||
        (!document.documentElement.getAttribute('data-theme') && systemDark());
      chosen = dark ? 'light' : 'dark';
      try {
        localStorage.setItem(THEME, chosen);
      } catch (e) {
        // not kept: this page still switches
      }
      apply();
    });
  }
  if (typeof matchMedia === 'function') {
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', apply);
  }
  apply();
}

// The larger-text option: a toggle that scales the page's text by a
// quarter (data-text="large" on <html>; the styles are in rem), kept in
// the browser's storage for both pages.
const TEXT = 'bouton.text';

export function textSizeSwitch(button) {
  let large = false;
  try {
    large = localStorage.getItem(TEXT) === 'large';
  } catch (e) {
    large = false;
  }
  const apply = () => {
    if (large) document.documentElement.setAttribute('data-text', 'large');
    else document.documentElement.removeAttribute('data-text');
    if (button) button.setAttribute('aria-pressed', large ? 'true' : 'false');
  };
  if (button) {
    button.addEventListener('click', () => {
      large = !large;
      try {
        localStorage.setItem(TEXT, large ? 'large' : 'normal');
      } catch (e) {
        // not kept: this page still changes
      }
      apply();
      // drawings sized to the room they have are drawn again
      window.dispatchEvent(new Event('resize'));
    });
  }
  apply();
}

// ------------------------------------------------------------------ API

export class ApiError extends Error {
  constructor(status, err) {
    super(err && err.message ? err.message : `HTTP ${status}`);
    this.status = status;
    this.code = err && err.code ? err.code : 'EHTTP';
    this.column = err && err.column ? err.column : 0;
  }
}

// Calls the API: api('analyze', {...}) posts JSON; api('games') gets.
export async function api(endpoint, body) {
  const init = body === undefined
    ? {method: 'GET'}
    : {method: 'POST', headers: {'Content-Type': 'application/json'},
       body: JSON.stringify(body)};
  let resp;
  try {
    resp = await fetch('/v1/' + endpoint, init);
  } catch (e) {
    throw new ApiError(0, {code: 'ENET', message: T('net.down')});
  }
  let json = null;
  try {
    json = await resp.json();
  } catch (e) {
    throw new ApiError(resp.status, {code: 'EHTTP', message: `HTTP ${resp.status}`});
  }
  if (!resp.ok) throw new ApiError(resp.status, json && json.error);
  return json;
}

// ---------------------------------------------------------------- games

// The game families, from the server's registry (GET /v1/games): name,
// syntax, title, summary, example, aliases, named games (each with its
// canonical text and rules), arity (0: a component of any number of
// numbers) and board (how to draw it: "piles", or coins in a "row" or on a
// "grid").  loadGames() fetches them once; every list of games on the
// page is built from them.
let FAMILIES = [];
let loading = null;

export function loadGames() {
  if (!loading) {
    loading = api('games').then((res) => {
      FAMILIES = res.games;
      return FAMILIES;
    }, (e) => {
      loading = null;
      throw e;
    });
  }
  return loading;
}

export const families = () => FAMILIES;

// The family of a game text: by its name before ':' or as a named game.
export function familyOf(spec) {
  const raw = String(spec).trim();
  const colon = raw.indexOf(':');
  const name = colon < 0 ? raw : raw.slice(0, colon);
  return FAMILIES.find((f) => f.name === name || f.aliases.includes(name)) || null;
}

// The rules of each game, by its text (POST /v1/game): {game, family,
// title, arity, rules, board, first_coin}; loadRules() fetches those not
// known yet.
const RULES = new Map();

export async function loadRules(specs) {
  for (const f of FAMILIES) {
    for (const n of f.named) {
      if (!RULES.has(n.game)) RULES.set(n.game, n);
    }
  }
  const missing = [...new Set(specs)].filter((s) => !RULES.has(s));
  const got = await Promise.all(missing.map((s) => api('game', {game: s}).catch(() => null)));
  missing.forEach((s, k) => {
    if (got[k]) RULES.set(s, got[k]);
  });
}

// The number of the first coin of each axis of a coin game ([x] for a
// row, [x, y] for a grid), as its family numbers them (POST /v1/game's
// first_coin; 0 until the game's answer is loaded).
export function firstCoin(g) {
  const r = RULES.get(g.spec);
  const f = r && Array.isArray(r.first_coin) ? r.first_coin : [];
  return [BigInt(f[0] || 0), BigInt(f[1] || 0)];
}

// Whether g is drawn as coins (GET /v1/games' board: "row" or "grid").
export const isCoinGame = (g) => g.board === 'row' || g.board === 'grid';

// The rules of a game in plain words (from the server), and the summary
// of its family when it has parameters (for a details box).
export function rulesOf(g) {
  const r = RULES.get(g.spec);
  const f = familyOf(g.spec);
  const colon = g.spec.indexOf(':');
  return {
    text: r ? r.rules : f ? f.summary : g.spec,
    family: f && colon >= 0 ? `${T('rules.family', {name: g.spec.slice(0, colon), params: g.spec.slice(colon + 1)})} ${f.summary}` : null,
  };
}

function parseSet(text) {
  // "1-3,7" -> [1n, 2n, 3n, 7n]
  const out = [];
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (!m) return null;
    const lo = BigInt(m[1]);
    const hi = m[2] === undefined ? lo : BigInt(m[2]);
    if (hi < lo || hi - lo > 10000n) return null;
    for (let x = lo; x <= hi; x++) if (!out.includes(x)) out.push(x);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function parseOctal(code) {
  // "0.77" -> {d0: 0, d: [_, 7, 7]}; "4.07" allows splitting without taking.
  const m = /^(\d)?\.?([0-7]*)$/.exec(code);
  if (!m) return null;
  const d = [Number(m[1] || 0)];
  for (const c of m[2]) d.push(Number(c));
  return d;
}

// A game of the page from its canonical text (as the server writes it:
// "nim", "wythoff:2", "sub:1-3", "octal:0.77", "grundy", "moore:2"): its
// family and arity from the registry, and for the families whose moves
// the page checks itself, their parameters.  A family the page does not
// check is 'other' (local: false): the server checks its moves.
export function parseGame(spec) {
  const raw = String(spec).trim();
  const f = familyOf(raw);
  const named = f && f.named.find((n) => n.name === raw);
  const full = named ? named.game : raw;
  const colon = full.indexOf(':');
  const params = colon < 0 ? '' : full.slice(colon + 1);
  const g = {spec: raw, family: f ? f.name : 'other', arity: f ? f.arity : 1, local: true,
    board: f && f.board ? f.board : 'piles'};
  switch (g.family) {
    case 'nim':
      return g;
    case 'wythoff':
      g.a = params ? BigInt(params) : 1n;
      return g;
    case 'sub':
      g.set = parseSet(params) || [1n, 2n, 3n];
      return g;
    case 'octal':
      g.digits = parseOctal(params) || [0, 7, 7];
      g.split = g.digits.some((d) => d & 4);
      return g;
    case 'grundy':
      g.split = true;
      return g;
    default:
      g.local = false;
      return g;
  }
}

// Whether empty heaps leave the position (heap games but Nim): an emptied
// heap is no component.
export const dropsEmpty = (g) => g.arity === 1 && g.family !== 'nim';

const sum = (xs) => xs.reduce((a, b) => a + b, 0n);

// Why moving component `nums` to `to` is not legal in g, or null if it is.
export function illegal(g, nums, to) {
  if (to.some((x) => x < 0n)) return T('ill.negative');
  switch (g.family) {
    case 'nim': {
      if (to.length !== 1) return T('ill.nim');
      if (to[0] >= nums[0]) return T('ill.one');
      return null;
    }
    case 'wythoff': {
      if (to.length !== 2) return T('ill.wythoff');
      const dx = nums[0] - to[0];
      const dy = nums[1] - to[1];
      if (dx < 0n || dy < 0n) return T('ill.grow');
      if (dx === 0n && dy === 0n) return T('ill.one');
      if (dx > 0n && dy > 0n) {
        const diff = dx > dy ? dx - dy : dy - dx;
        if (diff >= g.a) {
          return g.a === 1n
            ? T('ill.same')
            : T('ill.differ', {a: g.a});
        }
      }
      return null;
    }
    case 'sub': {
      if (to.length !== 1) return T('ill.sub');
      const k = nums[0] - to[0];
      if (!g.set.includes(k)) {
        return T('ill.set', {set: g.set.join(', '), k});
      }
      return null;
    }
    case 'octal': {
      const left = sum(to);
      const k = nums[0] - left;
      if (k < 0n) return T('ill.heapgrow');
      if (to.some((x) => x === 0n)) return T('ill.noempty');
      if (k >= BigInt(g.digits.length)) return T('ill.maynot', {k});
      const d = g.digits[Number(k)];
      const bit = to.length === 0 ? 1 : to.length === 1 ? 2 : to.length === 2 ? 4 : 0;
      if (k === 0n && to.length !== 2) return T('ill.one');
      if (!(d & bit)) {
        const how = ['ill.how.whole', 'ill.how.one', 'ill.how.two'];
        return T('ill.taking', {k, how: T(how[[1, 2, 4].indexOf(bit)] || 'ill.how.that')});
      }
      return null;
    }
    case 'grundy': {
      if (to.length !== 2 || sum(to) !== nums[0]) return T('ill.split');
      if (to[0] === to[1]) return T('ill.unequal');
      if (to.some((x) => x === 0n)) return T('ill.nonempty');
      return null;
    }
    default:
      return null; // the server checks what the page does not know
  }
}

// Whether component `nums` of g has a move left (a game the page checks).
export function hasMove(g, nums) {
  switch (g.family) {
    case 'nim':
      return nums[0] > 0n;
    case 'wythoff':
      return nums[0] > 0n || nums[1] > 0n;
    case 'sub':
      return g.set.some((s) => s <= nums[0]);
    case 'octal': {
      const n = nums[0];
      for (let k = 0; k < g.digits.length; k++) {
        const d = g.digits[k];
        const r = n - BigInt(k);
        if (r < 0n) break;
        if (k === 0 && !(d & 4)) continue;
        if ((d & 1 && r === 0n) || (d & 2 && r >= 1n) || (d & 4 && r >= 2n)) return true;
      }
      return false;
    }
    case 'grundy':
      return nums[0] >= 3n;
    default:
      return true;
  }
}

// The words for component i (0-based): "pile 2", "heap 3", "pair 1",
// "game 1" (a component of any number of piles).
export function compName(g, i) {
  const n = i + 1;
  if (g.family === 'nim') return T('comp.pile', {n});
  if (g.arity === 2) return T('comp.pair', {n});
  if (g.arity === 0) return T('comp.game', {n});
  return T('comp.heap', {n});
}

// The same in English, for the move texts, which read as the server's.
function compNameEn(g, i) {
  const n = i + 1;
  if (g.family === 'nim') return `pile ${n}`;
  if (g.arity === 2) return `pair ${n}`;
  if (g.arity === 0) return `game ${n}`;
  return `heap ${n}`;
}

// A move's text for the game record's list, like the server's texts.
export function describe(g, i, nums, to) {
  if (g.family === 'wythoff') {
    const dx = nums[0] - to[0];
    const dy = nums[1] - to[1];
    const what = dx > 0n && dy > 0n
      ? (dx === dy ? `take ${dx} from both piles` : `take ${dx} and ${dy}`)
      : dx > 0n ? `take ${dx} from the first pile` : `take ${dy} from the second pile`;
    return `${what} of ${compNameEn(g, i)}`;
  }
  const taken = nums[0] - sum(to);
  const name = compNameEn(g, i);
  if (g.family === 'grundy') return `split ${name} into ${to.join(' and ')}`;
  if (to.length === 2) return `take ${taken} from ${name}, leaving ${to[0]} and ${to[1]}`;
  if (to.length === 0) return `take all ${taken} of ${name}`;
  return `take ${taken} from ${name}`;
}

// ------------------------------------------------------------ positions

// A position of the page: [{game, nums: [BigInt...], ghost}], game a
// parseGame().  A ghost is a heap a move emptied in a game whose positions
// drop empty heaps (octal and subtraction games): the page keeps it in its
// place, drawn empty, so that the heaps keep their places and numbers; it
// is no part of the position sent to the server or written in a record.
export function copyComps(comps) {
  return comps.map((c) => ({game: c.game, nums: c.nums.slice(), ghost: c.ghost || undefined}));
}

export const live = (comps) => comps.filter((c) => !c.ghost);

// The page's index of the API's component k (1-based), and back.
export function pageIndex(comps, k) {
  let seen = 0;
  for (let i = 0; i < comps.length; i++) {
    if (comps[i].ghost) continue;
    if (++seen === k) return i;
  }
  return -1;
}

export function apiIndex(comps, i) {
  let k = 0;
  for (let j = 0; j <= i; j++) if (!comps[j].ghost) k++;
  return k;
}

// The structured form of the API: runs of one game as {game, position}.
export function apiPosition(comps) {
  const out = [];
  for (const c of live(comps)) {
    const last = out[out.length - 1];
    const nums = c.nums.map(String);
    if (last && last.game === c.game.spec) last.position.push(...nums);
    else out.push({game: c.game.spec, position: nums});
  }
  return out;
}

export function singleGame(comps) {
  comps = live(comps);
  if (comps.length === 0) return null;
  const s = comps[0].game.spec;
  return comps.every((c) => c.game.spec === s) ? comps[0].game : null;
}

// The position in the position language ("nim 3 4 5 + kayles 10").
export function positionText(comps) {
  return apiPosition(comps)
    .map((t) => `${t.game} ${t.position.join(' ')}`)
    .join(' + ');
}

// The position as the seeds write it: "(41,163,13)"; a sum in the
// position language inside the parentheses.
export function notation(comps, plain) {
  comps = live(comps);
  if (plain && (comps.length === 0 || singleGame(comps) !== null)) {
    return '(' + comps.flatMap((c) => c.nums.map(String)).join(',') + ')';
  }
  return '(' + positionText(comps) + ')';
}

// Components from the API's parse answer.
export function compsFromParse(parsed) {
  return parsed.components.map((c) => ({
    game: parseGame(c.game),
    nums: c.position.map((x) => BigInt(x)),
  }));
}

// Applies a move {component (the API's, 1-based), to}.  A heap emptied
// (no numbers left) stays in its place as a ghost.
export function applyMove(comps, move) {
  const i = pageIndex(comps, move.component);
  if (i < 0) throw new Error(`no component ${move.component} in this position`);
  const c = comps[i];
  const to = move.to.map((x) => BigInt(x));
  const repl = [];
  // a game of variable arity (0) keeps one component of all the numbers
  const step = c.game.arity || Math.max(1, to.length);
  for (let k = 0; k < to.length; k += step) {
    repl.push({game: c.game, nums: to.slice(k, k + step)});
  }
  if (repl.length === 0) repl.push({game: c.game, nums: Array(c.game.arity || 1).fill(0n), ghost: true});
  const out = copyComps(comps);
  out.splice(i, 1, ...repl);
  return out;
}

// Whether the game is over: true or false, or null when that depends on
// a component of a game the page does not check (the server then says,
// from a record of the position: overOnServer).
export function isOver(comps) {
  let unknown = false;
  for (const c of live(comps)) {
    if (!c.game.local) unknown = true;
    else if (hasMove(c.game, c.nums)) return false;
  }
  return unknown ? null : true;
}

// Checks a move of a position the page cannot check itself, by the
// server's reading of a record of it (the same code as `bouton play
// --load`): the move's text and whether the game is over after it, or an
// ApiError saying why it is not legal.  With `to` null, only whether the
// position `from` is over.
export async function checkOnServer(from, to, misere) {
  const lines = [`rules: ${misere ? 'mis\u00e8re' : 'normal'}`, '', `(${positionText(from)})`];
  if (to) lines.push(`-A-> (${positionText(to)})`);
  const rec = await api('record', {record: lines.join('\n') + '\n'});
  return {text: rec.moves.length ? rec.moves[0].text : '', over: rec.winner !== null};
}

// Remoteness as the API gives it: a number (older servers), a decimal
// string, or null / absent when unknown.  Returns a BigInt or null.
export function remotenessOf(x) {
  if (x === null || x === undefined) return null;
  if (typeof x === 'number') return Number.isInteger(x) && x >= 0 ? BigInt(x) : null;
  if (typeof x === 'string' && /^\d+$/.test(x)) return BigInt(x);
  return null;
}

// A scroll box for a wide table: focusable, labelled, and with a visible
// cue while some of it is out of view (a phone shows no scroll bar).
export function scrollBox(label, ...kids) {
  const box = h('div', {class: 'scroll', tabindex: 0, role: 'region', 'aria-label': label}, ...kids);
  const cue = h('p', {class: 'scroll-cue', hidden: true}, T('scroll.cue'));
  const wrap = h('div', {class: 'scroll-wrap'}, box, cue);
  const update = () => {
    const more = box.scrollWidth > box.clientWidth + 1;
    cue.hidden = !more;
    box.classList.toggle('more-right', more && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  };
  box.addEventListener('scroll', update);
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(update).observe(box);
  requestAnimationFrame(update);
  return wrap;
}

// ------------------------------------------------------------- records

// A game record in the seeds' notation (Beardon: (41,163,13) -A-> ...),
// in the format of `bouton play`'s saved games (include/bouton/play.h): a
// header of `key: value` lines naming the game and the rules, then the
// start and one line per move with the player who made it.
export function recordText(rec) {
  const lines = [
    '# bouton game record',
    `game: ${rec.game}`,
    `rules: ${rec.misere ? 'mis\u00e8re' : 'normal'}`,
    `first: ${rec.first}`,
    `A: ${rec.names.A}`,
    `B: ${rec.names.B}`,
  ];
  if (rec.level !== undefined) lines.push(`level: ${rec.level}`);
  if (rec.seed !== undefined) lines.push(`seed: ${rec.seed}`);
  lines.push('');
  rec.history.forEach((st, k) => {
    lines.push(k === 0 ? st.text : `-${st.mover}-> ${st.text}`);
  });
  if (rec.winner) lines.push(`result: ${rec.winner} wins`);
  return lines.join('\n') + '\n';
}

// ------------------------------------------------------ analysis panels

const bin = (x) => x.toString(2);
const MAX_BITS = 1024;

// The binary columns of Bouton sec. 2 (and Beardon's matrix): the numbers
// in binary, units in one column, the column sums, the odd columns marked
// and the leftmost odd one highlighted with the rows that have a 1 there
// (the piles that can be reduced to make a safe combination).
export function binaryPanel(values, labels, caption, misere) {
  const width = values.reduce((w, v) => Math.max(w, bin(v).length), 1);
  const shown = Math.min(width, MAX_BITS);
  const digits = values.map((v) => bin(v).padStart(width, '0').slice(width - shown));
  const sums = [];
  for (let c = 0; c < shown; c++) {
    sums.push(digits.reduce((s, d) => s + (d[c] === '1' ? 1 : 0), 0));
  }
  const lead = sums.findIndex((s) => s % 2 === 1);
  const nimsum = values.reduce((a, b) => a ^ b, 0n);
  const colClass = (c) => [sums[c] % 2 ? 'odd' : '', c === lead ? 'lead' : ''].join(' ').trim() || null;
  const table = h('table', {class: 'binary'},
    h('caption', {}, caption || T('bin.caption')),
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col'}, ''), h('th', {scope: 'col'}, T('bin.number')),
      digits.length && shown <= 40
        ? Array.from({length: shown}, (_, c) => h('th', {scope: 'col', class: colClass(c), title: `2^${shown - 1 - c}`}, String(shown - 1 - c)))
        : h('th', {scope: 'col', colspan: shown}, T('bin.digits')))),
    h('tbody', {}, values.map((v, r) => h('tr', {class: lead >= 0 && digits[r][lead] === '1' ? 'shrink' : null},
      h('th', {scope: 'row'}, labels[r]),
      h('td', {class: 'num'}, String(v)),
      Array.from({length: shown}, (_, c) => h('td', {class: colClass(c)}, digits[r][c]))))),
    h('tfoot', {},
      h('tr', {class: 'sums'}, h('th', {scope: 'row'}, T('bin.sums')), h('td', {}, ''),
        sums.map((s, c) => h('td', {class: colClass(c)}, String(s)))),
      h('tr', {class: 'nimsum'}, h('th', {scope: 'row'}, T('bin.nimsum')), h('td', {class: 'num'}, String(nimsum)),
        sums.map((s, c) => h('td', {class: colClass(c)}, String(s % 2))))));
  const notes = [];
  if (width > shown) notes.push(h('p', {class: 'note'}, T('bin.last', {shown, width})));
  if (misere && values.every((v) => v <= 1n)) {
    // Bouton sec. 6: with no pile above 1 the column rule turns round.
    const ones = values.filter((v) => v === 1n).length;
    notes.push(h('p', {class: 'verdict'},
      T('bin.ones', {n: ones}),
      ones % 2 ? T('bin.odd') : T('bin.even')));
    return h('div', {class: 'panel-binary'}, scrollBox(T('bin.label'), table), notes);
  }
  if (misere) {
    notes.push(h('p', {class: 'note'}, T('bin.misere')));
  }
  if (lead < 0) {
    notes.push(h('p', {class: 'verdict'}, T('bin.safe')));
  } else {
    const k = shown - 1 - lead;
    const rows = labels.filter((_, r) => digits[r][lead] === '1');
    notes.push(h('p', {class: 'verdict'},
      T('bin.lead', {k}), ' ', T('bin.move', {rows: rows.join(', ')})));
  }
  return h('div', {class: 'panel-binary'}, scrollBox(T('bin.label'), table), notes);
}

// The P-positions of Wythoff's game and its generalisation around a pair,
// with the mex construction and the closed form (Wythoff 1907, sec. 5-7).
// rows: [[A, B], ...] from /v1/table; at: the position [x, y].
export function wythoffPanel(g, misere, rows, at) {
  const a = g.a || 1n;
  const x = at[0] < at[1] ? at[0] : at[1];
  const y = at[0] < at[1] ? at[1] : at[0];
  const alpha = (2 - Number(a) + Math.sqrt(Number(a) * Number(a) + 4)) / 2;
  const intro = misere
    ? h('p', {}, a === 1n
      ? T('wy.misere1')
      : T('wy.misere', {a}))
    : h('p', {},
      T('wy.mex', {a: a === 1n ? '' : a + '\u00b7'}), ' ',
      T('wy.closed', {alpha: alpha.toFixed(9)}),
      a === 1n ? T('wy.phi') : ' (sec. 7).');
  const showFloat = rows.every((r) => r[1] < 10n ** 12n);
  const table = h('table', {class: 'pairs'},
    h('caption', {}, T('wy.caption')),
    h('thead', {}, h('tr', {},
      misere ? null : h('th', {scope: 'col'}, 'n'),
      h('th', {scope: 'col'}, 'A\u2099'), h('th', {scope: 'col'}, 'B\u2099'),
      misere || !showFloat ? null : h('th', {scope: 'col'}, 'n\u00b7\u03b1'))),
    h('tbody', {}, rows.map((r) => {
      const n = a > 0n ? (r[1] - r[0]) / a : 0n;
      const here = r[0] === x && r[1] === y;
      const near = r[0] === x || r[1] === x || r[0] === y || r[1] === y;
      return h('tr', {class: here ? 'here' : near ? 'near' : null},
        misere ? null : h('td', {class: 'num'}, String(n)),
        h('td', {class: 'num'}, String(r[0])), h('td', {class: 'num'}, String(r[1])),
        misere || !showFloat ? null : h('td', {class: 'num'}, (Number(n) * alpha).toFixed(3)));
    })));
  const inTable = rows.some((r) => r[0] === x && r[1] === y);
  return h('div', {class: 'panel-wythoff'}, intro, scrollBox(T('wy.label'), table),
    h('p', {class: 'verdict'}, inTable
      ? T('wy.safe', {x, y})
      : T('wy.notsafe', {x, y})));
}

// The safe pairs around a Wythoff position [x, y], from /v1/table.
export async function wythoffAround(g, misere, nums) {
  const x = nums[0] < nums[1] ? nums[0] : nums[1];
  const y = nums[0] < nums[1] ? nums[1] : nums[0];
  const min = x > 6n ? x - 6n : 0n;
  const res = await api('table', {game: g.spec, misere, piles: 1, min: String(min),
    below: String(4n * y + 20n), limit: 12});
  return wythoffPanel(g, misere, res.rows.map((r) => r.map((v) => BigInt(v))), [x, y]);
}

// The components of a sum with their Grundy values and the nim-sum of the
// values (the Sprague-Grundy theorem), with the values in binary columns.
export function sumPanel(result) {
  // misère play through a misère quotient: the heaps' elements in place
  // of Grundy values, which do not decide misère sums
  if (result.quotient) return h('div', {class: 'panel-sum'}, quotientPanel(result));
  const comps = result.components || [];
  const rows = comps.map((c, i) => h('tr', {},
    h('td', {class: 'num'}, String(i + 1)), h('td', {}, c.game),
    h('td', {class: 'num'}, c.position.join(', ')),
    h('td', {class: 'num'}, c.grundy === undefined ? '\u2014' : c.grundy)));
  const parts = [scrollBox(T('sum.label'), h('table', {class: 'components'},
    h('caption', {}, T('sum.caption')),
    h('thead', {}, h('tr', {}, ['#', T('sum.game'), T('sum.position'), T('sum.grundy')].map((x) => h('th', {scope: 'col'}, x)))),
    h('tbody', {}, rows)))];
  if (comps.length && comps.every((c) => c.grundy !== undefined)) {
    parts.push(binaryPanel(comps.map((c) => BigInt(c.grundy)),
      comps.map((c, i) => `${i + 1}: ${c.game}`),
      T('sum.binary')));
  } else if (result.misere) {
    parts.push(h('p', {class: 'note'}, T('sum.misere')));
  }
  return h('div', {class: 'panel-sum'}, parts);
}

// An element of a misère quotient: its word in the generators, exponents
// raised ("ab^2c" as a b² c); the word as the server wrote it in
// data-word.
export function wordNode(w) {
  const el = h('span', {class: 'q-word', 'data-word': w, title: w === '1' ? T('q.one') : null});
  for (const part of w.split(/(\^\d+)/)) {
    if (!part) continue;
    el.append(part[0] === '^' ? h('sup', {}, part.slice(1)) : part);
  }
  return el;
}

// Misère play through the misère quotient Q (Plambeck and Siegel), from
// an analysis's "quotient" and its components' "element"s: what Q is,
// its P-portion, each heap's element and their product, which decides
// the position as a nim-sum does in normal play (docs/misere.md).
export function quotientPanel(result) {
  const q = result.quotient;
  const comps = result.components || [];
  const heaps = q.proved ? T('q.heaps.all') : T('q.heaps.upto', {upto: q.upto});
  const intro = [T('q.intro', {game: q.game, heaps, order: q.order, p: q.p_portion})];
  if (q.proved) intro.push(' ', T('q.proved', {upto: q.upto, period: q.period, preperiod: q.preperiod}));
  if (q.loaded) intro.push(' ', T('q.loaded'));
  const pset = [];
  q.p.forEach((w, i) => pset.push(i ? ', ' : '', wordNode(w)));
  // a sum of several games names each heap's game
  const games = new Set(comps.map((c) => c.game)).size > 1;
  const rows = comps.map((c, i) => h('tr', {},
    h('td', {class: 'num'}, String(i + 1)),
    games ? h('td', {}, c.game) : null,
    h('td', {class: 'num'}, c.position.join(', ')),
    h('td', {}, c.element === undefined ? '\u2014' : wordNode(c.element),
      c.as_heap === undefined ? null : T('q.as', {n: c.as_heap}))));
  return h('div', {class: 'panel-quotient'},
    h('p', {}, intro),
    h('p', {class: 'q-p'}, T('q.pset'), '{', pset, '}'),
    comps.length ? scrollBox(T('q.label'), h('table', {class: 'components q-heaps'},
      h('caption', {}, T('q.caption')),
      h('thead', {}, h('tr', {}, ['#', games ? T('sum.game') : null, T('q.heap'), T('q.element')]
        .filter((x) => x !== null).map((x) => h('th', {scope: 'col'}, x)))),
      h('tbody', {}, rows))) : null,
    h('p', {class: 'q-product ' + (q.in_p ? 'P' : 'N')}, T('q.product'), wordNode(q.element),
      T(q.in_p ? 'q.in' : 'q.out')));
}

// Outcome and winning moves of an analyze answer.  When the answer lists
// only some winning moves (winning_moves_complete false: too many to
// list), it says so, and what is listed and why (winning_moves_note).
//
// plain (the play page): no component numbers and no reasons in the
// server's terms, only words.
export function outcomePanel(result, onPlay, plain) {
  const p = result.outcome === 'P';
  const moves = result.winning_moves || [];
  const partial = result.winning_moves_complete === false;
  const rem = remotenessOf(result.remoteness);
  const words = p ? T('out.p')
    : !partial ? T('out.n')
      : moves.length === 0
        ? T('out.many')
        : T('out.some', {n: moves.length});
  return h('div', {class: 'panel-outcome'},
    h('p', {class: 'outcome ' + (p ? 'P' : 'N')},
      h('strong', {}, p ? 'P-position' : 'N-position'),
      words,
      result.grundy !== undefined ? ` ${T('out.grundy', {g: result.grundy})}` : '',
      plain
        ? (rem !== null ? ` ${T('out.lasts', {n: rem})}`
          : result.remoteness_reason ? ` ${T('out.notcounted')}` : '')
        : rem !== null ? ` ${T('out.rem', {n: rem})}`
          : result.remoteness_reason ? ` ${T('out.remunknown', {why: result.remoteness_reason})}` : ''),
    p || moves.length === 0 ? null : h('ul', {class: 'moves'}, moves.map((m) => h('li', {},
      mark(h('span', {class: 'move-text'}, m.text)), ' ',
      m.element === undefined ? null : h('span', {class: 'move-element'}, T('q.leaves'), wordNode(m.element)), ' ',
      plain ? null : h('span', {class: 'move-to'}, `(${T('out.component', {n: m.component})} \u2192 ${m.to.length ? m.to.join(', ') : T('out.nothing')})`),
      onPlay ? h('button', {type: 'button', class: 'play-move', onclick: () => onPlay(m)}, T('out.play')) : null))),
    partial && result.winning_moves_note
      ? mark(h('p', {class: 'moves-note'}, result.winning_moves_note.charAt(0).toUpperCase() +
        result.winning_moves_note.slice(1) + '.'))
      : null);
}

// Random integers in [lo, hi] (Numbers, small) from the crypto source.
export function randInt(lo, hi) {
  const u = new Uint32Array(1);
  crypto.getRandomValues(u);
  return lo + (u[0] % (hi - lo + 1));
}
