// app.js -- the play page: choose a game, play it against the computer or
// a friend by clicking counters, with hints, undo, the analysis of each
// position and the game record.
import {
  h, clear, api, ApiError, illegal, describe, compName,
  copyComps, apiPosition, singleGame, notation, compsFromParse, applyMove,
  isOver, recordText, binaryPanel, parseGame, positionText,
  wythoffAround, sumPanel, outcomePanel, quotientPanel, wordNode, randInt,
  apiIndex, pageIndex, remotenessOf, loadGames, families, familyOf,
  loadRules, rulesOf, dropsEmpty, checkOnServer, firstCoin, isCoinGame, live,
  themeSwitch, textSizeSwitch,
} from './common.js';
import {t as T, translatePage, mark} from './messages.js';

const $ = (id) => document.getElementById(id);
const DRAW_MAX = 100n; // a bigger pile gets a number field instead of counters
const COLS = 15; // counters per line of a drawing
// Distance between counters in the drawing: on a phone every counter is a
// tap target of at least 44 px.
const phone = () => window.matchMedia('(max-width: 36rem)').matches;
const cell = () => (phone() ? 48 : 24);
const RADIUS = () => (phone() ? 0.47 : 0.38);

const S = {
  spec: 'nim', // the game of the setup form, or 'sum'
  misere: false,
  vsComputer: true,
  level: 'perfect',
  first: 'A',
  names: {A: T('name.you'), B: T('name.computer')},
  seed: 1n,
  comps: [],
  history: [], // [{comps, mover, text, moveText, move}]
  future: [], // groups of history entries undone, for redo (latest last)
  turn: 'A',
  over: false,
  result: '',
  sel: null, // {comp, rows: {r: selection}}
  busy: false,
  started: false,
  startTyped: false, // the start field holds what the player typed
  gameId: 0, // bumped by every new game, undo and jump: a reply to an older one is dropped
  moveError: '', // why the computer's last attempt failed (offers retry)
  view: null, // the history index being viewed, or null
  showValues: false,
  queen: false, // Wythoff's pairs drawn as a queen on a grid (Corner the Queen)
  golden: false, // on the grid, the lines of the safe pairs (the golden ratio)
  values: null, // {key, moves: Map, list, error} of the position to move
  flash: null, // {i, before, n, id}: the computer's last move, drawn fading
  cursor: null, // {comp, j}: the keyboard's coin on a coin board
  hintMarks: null, // {key, moves}: the hint's winning moves, marked on coin boards
  setupOpen: false, // the New game form unfolded during a game
};
const valueCache = new Map(); // position key -> {outcome, remoteness} (who wins)

// ---------------------------------------------------------------- setup

// The choices of the Game select: a family of the registry (value: its
// name), Misère Nim (Nim with misère play ticked) and a sum.  A family's
// parameter (after ':' in its syntax) gets a field, with the family's
// example as its default.
// The parameter of each family in words, not the syntax's letters
// ("D.DDD", "K", "A"); the help under it says what it means.
const PARAM_WORDS = {
  wythoff: 'param.wythoff',
  sub: 'param.sub',
  octal: 'param.octal',
  tb: 'param.tb',
  moore: 'param.moore',
  tartan: 'param.tartan',
};

function paramOf(kind) {
  const f = families().find((x) => x.name === (kind === 'misere-nim' ? 'nim' : kind));
  if (!f) return null;
  const m = /^[^:[]*\[?:([^\]]*)\]?$/.exec(f.syntax);
  if (!m) return null;
  const colon = f.example.indexOf(':');
  const named = f.named.map((n) => `${n.name} (${n.game})`);
  const optional = f.syntax.includes('[');
  return {
    label: T(PARAM_WORDS[f.name] || 'param.rules'),
    value: colon < 0 ? '' : f.example.slice(colon + 1),
    optional,
    help: [f.summary,
      optional ? T('param.optional', {name: f.name}) : '',
      named.length ? T('param.named', {list: named.join(', ')}) : ''].filter(Boolean).join(' '),
  };
}

function fillGameSelect() {
  const sel = clear($('game'));
  for (const f of families()) {
    sel.append(mark(h('option', {value: f.name}, f.title))); // the server's title
    if (f.name === 'nim') sel.append(h('option', {value: 'misere-nim'}, T('setup.misere.title', {title: f.title})));
  }
  sel.append(h('option', {value: 'sum'}, T('setup.sum')));
  sel.disabled = false;
}

function setupSpec() {
  const kind = $('game').value;
  // a family without a parameter: the hidden field is not read
  const param = $('param-row').hidden ? '' : $('param').value.trim();
  if (kind === 'sum') return 'sum';
  if (kind === 'misere-nim') return 'nim';
  // a named game or another family typed as the parameter
  if (param && familyOf(param) && !param.includes(':')) return param;
  const p = paramOf(kind);
  if (!p || (p.optional && !param)) return kind;
  return `${kind}:${param || p.value}`;
}

let lastKind = '';

function onGameChange() {
  const kind = $('game').value;
  // leaving Misère Nim unticks the box it ticked: the next game is not
  // silently misère
  const was = lastKind;
  lastKind = kind;
  const p = paramOf(kind);
  $('param-row').hidden = !p;
  if (p) {
    $('param-label').textContent = p.label;
    $('param').value = p.value;
    $('param-help').textContent = p.help;
  }
  if (kind === 'misere-nim') $('misere').checked = true;
  else if (kind === 'nim' || was === 'misere-nim') $('misere').checked = false;
  const f = familyOf(kind === 'misere-nim' ? 'nim' : kind);
  $('start-help').textContent = kind === 'sum'
    ? T('start.help.sum', {example: sumExample(false, () => 3)})
    : f && f.board === 'row'
      ? T('start.help.row')
      : f && f.board === 'grid'
        ? T('start.help.grid')
    : f && f.arity === 2
      ? T('start.help.pair')
      : f && f.arity === 0
        ? T('start.help.many')
        : T('start.help.nums');
  randomStart();
}

// A sum of one component of each of the first games of the registry
// (their examples), the numbers drawn by r(arity); in misère play,
// solved by searching the whole game, three small heap games.
function sumExample(misere, r) {
  const fs = families().filter((f) => (misere ? f.arity === 1 : f.arity >= 1));
  return fs.slice(0, misere ? 3 : 4)
    .map((f) => `${f.example} ${Array.from({length: f.arity}, () => r(f)).join(' ')}`)
    .join(' + ');
}

function randomStart() {
  S.startTyped = false;
  const kind = $('game').value;
  const r = (lo, hi) => randInt(lo, hi);
  const f = familyOf(kind === 'misere-nim' ? 'nim' : kind);
  let text;
  if (kind === 'sum') {
    text = $('misere').checked ? sumExample(true, () => r(1, 4)) : sumExample(false, () => r(1, 9));
  } else if (f && f.arity === 2) {
    text = `${r(2, 20)} ${r(2, 20)}`;
  } else if (f && f.board === 'grid') {
    // three heads on a small board (x,y)
    const picked = new Set();
    while (picked.size < 3) picked.add(`${r(0, 4)},${r(0, 4)}`);
    text = [...picked].join(' ');
  } else if (f && f.board === 'row') {
    // four heads in the first dozen coins (coin 0 does not exist in some)
    const picked = new Set();
    while (picked.size < 4) picked.add(r(1, 12));
    text = [...picked].sort((a, b) => a - b).join(' ');
  } else if (f && f.arity === 0) {
    // four distinct numbers: the piles of Moore's Nim, the heads of a coin
    // game (each coin once), or two coins (x, y) of a board
    const picked = new Set();
    while (picked.size < 4) picked.add(r(1, 15));
    text = [...picked].join(' ');
  } else if (f && f.name === 'nim') {
    const k = r(3, 4);
    text = Array.from({length: k}, () => r(1, 15)).join(' ');
  } else {
    text = `${r(4, 14)} ${r(4, 14)} ${r(4, 14)}`;
  }
  $('start').value = text;
}

async function startGame(ev) {
  if (ev) ev.preventDefault();
  $('setup-error').textContent = '';
  const spec = setupSpec();
  const text = $('start').value.trim();
  if (!text) randomStart();
  const body = spec === 'sum'
    ? {position: $('start').value.trim()}
    : {game: spec, position: $('start').value.trim()};
  let parsed;
  try {
    parsed = await api('parse', body);
  } catch (e) {
    showSetupError(e);
    return;
  }
  const comps = compsFromParse(parsed);
  if (comps.length === 0) {
    $('setup-error').textContent = T('setup.nopile');
    return;
  }
  await loadRules(comps.map((c) => c.game.spec));
  S.spec = spec;
  S.misere = $('misere').checked;
  S.vsComputer = $('mode-computer').checked;
  S.level = $('level').value;
  S.first = S.vsComputer && $('first').value === 'computer' ? 'B' : 'A';
  S.names = S.vsComputer ? {A: T('name.you'), B: T('name.computer.level', {level: T('level.' + S.level)})}
    : {A: T('name.playerA'), B: T('name.playerB')};
  S.seed = BigInt(randInt(1, 2 ** 31 - 1));
  begin(comps, [], S.first);
}

function showSetupError(e) {
  const msg = e instanceof ApiError && e.column
    ? `${e.message}`
    : e.message;
  $('setup-error').textContent = msg;
  if (e instanceof ApiError && e.column) {
    const input = $('start');
    const at = Math.max(0, e.column - 1);
    input.focus();
    input.setSelectionRange(at, Math.min(input.value.length, at + 1));
  }
}

// Starts from comps, with the moves of a loaded record (history entries).
function begin(comps, later, first) {
  S.gameId++;
  S.future = [];
  S.setupOpen = false;
  S.busy = false;
  S.moveError = '';
  S.view = null;
  S.values = null;
  S.flash = null;
  S.comps = comps;
  S.history = [{comps, mover: null, text: notation(comps, S.spec !== 'sum'), moveText: ''}, ...later];
  S.first = first;
  S.comps = S.history[S.history.length - 1].comps;
  S.turn = nextMover();
  S.sel = null;
  S.started = true;
  S.over = false;
  S.result = '';
  $('hint-box').hidden = true;
  $('move-error').textContent = '';
  checkOver();
  render();
  $('board').focus();
  maybeComputer();
}

function nextMover() {
  const top = S.history[S.history.length - 1];
  if (!top.mover) return S.first;
  return top.mover === 'A' ? 'B' : 'A';
}

// Decides whether the game is over; `known` is the server's word when
// the page has it.  Where the page cannot tell (a game it does not check)
// the server is asked, and until it answers the computer waits.
function checkOver(known) {
  let over = isOver(S.comps);
  if (over === null && known !== undefined) over = known;
  S.checking = over === null;
  if (over === null) overOnServer();
  if (!over) {
    S.over = false;
    S.result = '';
    S.winner = '';
    return;
  }
  S.over = true;
  const top = S.history[S.history.length - 1];
  const last = top.mover || (S.first === 'A' ? 'B' : 'A');
  const winner = S.misere ? (last === 'A' ? 'B' : 'A') : last;
  S.winner = winner;
  S.result = T(S.vsComputer && winner === 'A' ? 'result.youwin' : 'result.wins', {name: S.names[winner]}) +
    (top.mover ? T(S.misere ? 'result.misere' : 'result.normal') : T('result.nomove'));
}

async function overOnServer() {
  const id = S.gameId;
  const at = S.history.length;
  let res = null;
  try {
    res = await checkOnServer(S.comps, null, S.misere);
  } catch (e) {
    // not known: the game goes on, and a move that cannot be made says so
  }
  if (id !== S.gameId || at !== S.history.length || !S.checking) return;
  S.checking = false;
  if (res && res.over) {
    checkOver(true);
    render();
    if (S.over) $('play-again').focus();
  } else {
    maybeComputer();
  }
}

const humanTurn = () => S.started && !S.over && !S.busy && S.view === null && (!S.vsComputer || S.turn === 'A');

// ------------------------------------------------------------- drawing

// The game of the board: the setup's game (kept when every heap is
// gone), or null for a sum.
function boardGame() {
  return S.spec === 'sum' ? null : (singleGame(S.comps) || (S.comps[0] && S.comps[0].game) || null);
}

function drawRules() {
  const box = clear($('rules'));
  if (!S.started) return;
  const end = S.misere
    ? T('rules.misere')
    : T('rules.normal');
  const g = boardGame();
  if (!g) {
    const games = [];
    for (const c of S.comps) if (!games.some((x) => x.spec === c.game.spec)) games.push(c.game);
    box.append(h('p', {}, `${T('rules.sum')} ${end}`),
      h('ul', {class: 'rules-list'}, games.map((x) => mark(h('li', {}, rulesOf(x).text)))));
    const codes = games.map((x) => rulesOf(x).family).filter(Boolean);
    if (codes.length) box.append(h('details', {}, h('summary', {}, T('rules.params')), codes.map((c) => mark(h('p', {}, c)))));
    return;
  }
  const r = rulesOf(g);
  box.append(h('p', {}, mark(h('span', {}, r.text)), ` ${end}`));
  if (r.family) box.append(h('details', {class: 'code'}, h('summary', {}, T('rules.params')), mark(h('p', {}, r.family))));
}

// What a click does, next to the board.
function boardHelp() {
  // nothing to click once the game is over or while an old position is
  // viewed
  if (!S.started || S.over || S.view !== null) return '';
  const modes = new Set(S.comps.filter((c) => !isCoinGame(c.game)).map((c) => selMode(c.game)));
  const out = [];
  const queen = S.queen && S.comps.some(queenFits);
  if (queen) out.push(T('help.queen'));
  if (modes.has('tail') && !(queen && S.comps.every(queenFits))) out.push(T('help.tail'));
  if (modes.has('range')) out.push(T('help.range'));
  if (modes.has('cut')) out.push(T('help.cut'));
  if (S.comps.some((c) => c.game.arity === 2)) out.push(T('help.pair'));
  if (S.comps.some((c) => c.game.arity === 0 && !isCoinGame(c.game))) out.push(T('help.many'));
  if (S.comps.some((c) => isCoinGame(c.game))) out.push(T('help.coins'));
  return out.join(' ');
}

// How to play the games on the board, in full (mouse and keyboard), for
// the "?" box under the rules: open the first time a family is played on
// this browser, folded afterwards.
const SEEN = 'bouton.seen';

function howTo() {
  const modes = new Set(S.comps.filter((c) => !isCoinGame(c.game)).map((c) => selMode(c.game)));
  const out = [];
  if (modes.has('tail')) {
    out.push(T('howto.tail'), T('howto.tail.keys'));
  }
  if (modes.has('range')) {
    out.push(T('howto.range'),
      T('howto.range.keys'));
  }
  if (modes.has('cut')) {
    out.push(T('howto.cut'), T('howto.cut.keys'));
  }
  if (S.comps.some((c) => c.game.arity === 2)) {
    out.push(T('howto.pair'));
    out.push(T('howto.queen'));
  }
  if (S.comps.some((c) => c.game.arity === 0 && !isCoinGame(c.game))) {
    out.push(T('howto.many'));
  }
  if (S.comps.some((c) => isCoinGame(c.game))) {
    out.push(T('help.coins'), T('howto.coins.keys'));
  }
  if (S.spec === 'sum') out.push(T('howto.sum'));
  out.push(T('howto.values'));
  return out;
}

function drawHowTo() {
  const box = $('howto');
  box.hidden = !S.started;
  if (!S.started) return;
  const key = [...new Set(S.comps.map((c) => c.game.family))].sort().join('+') + (S.spec === 'sum' ? ' sum' : '');
  // the drawings depend on the games' parameters and the ending too
  const drawn = `${key} ${[...new Set(S.comps.map((c) => c.game.spec))].join('+')} ${S.misere}`;
  if (box.getAttribute('data-drawn') === drawn) return; // the same games: as it was, open or folded
  box.setAttribute('data-drawn', drawn);
  if (box.getAttribute('data-key') === key) {
    // the same families (another parameter, or misère): new drawings, the
    // box left open or folded
    clear($('howto-body')).append(h('div', {class: 'howto-figs'}, howToFigures()),
      h('ul', {class: 'rules-list'}, howTo().map((t) => h('li', {}, t))));
    return;
  }
  box.setAttribute('data-key', key);
  clear($('howto-body')).append(h('div', {class: 'howto-figs'}, howToFigures()),
    h('ul', {class: 'rules-list'}, howTo().map((t) => h('li', {}, t))));
  let seen = [];
  try {
    seen = JSON.parse(localStorage.getItem(SEEN) || '[]');
  } catch (e) {
    seen = [];
  }
  box.open = !seen.includes(key);
  if (!seen.includes(key)) {
    try {
      localStorage.setItem(SEEN, JSON.stringify([...seen, key].slice(-50)));
    } catch (e) {
      // not kept: it opens again next time
    }
  }
}

// ------------------------------------------------- how-to drawings

// A small drawing of one move for each game on the board (one a game, the
// first four), for the "?" box: a <figure> with an SVG and a caption in
// the page's language.  What is drawn legal is checked with the rules the
// page checks moves with (illegal()), so a drawing never shows a move the
// game refuses: the takes a subtraction heap allows, the pins Kayles or
// Dawson's Kayles knocks down.  Counters taken are dashed; the pieces a
// move leaves are drawn after an arrow.
const FIG_D = 16; // the distance between counters in a drawing

function howToFigures() {
  const out = [];
  const done = new Set();
  for (const c of S.comps) {
    const g = c.game;
    if (done.has(g.spec) || out.length >= 4) continue;
    done.add(g.spec);
    const f = figureOf(g);
    if (f) out.push(f);
  }
  return out;
}

// Counters in a line from (x, y): n of them, those in [a, b) dashed
// (taken), those from `blue` on in the accent colour (a second heap).
function figCounters(svg, x, y, n, a = n, b = n, blue = n) {
  for (let j = 0; j < n; j++) {
    const cls = j >= a && j < b ? 'fig-c fig-gone' : j >= blue ? 'fig-c fig-blue' : 'fig-c';
    svg.append(h('svg:circle', {cx: x + j * FIG_D + FIG_D / 2, cy: y, r: FIG_D * 0.38, class: cls}));
  }
  return x + n * FIG_D;
}

// "1, 2 or 3" in the page's language.
const orList = (xs) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} ${T('fig.or')} ${xs[xs.length - 1]}`);

function figArrow(svg, x, y) {
  svg.append(h('svg:text', {x: x + 4, y: y + 5, class: 'fig-text'}, '\u2192'));
  return x + 24;
}

function figText(svg, x, y, text) {
  svg.append(h('svg:text', {x, y: y + 4, class: 'fig-text'}, text));
}

function figSvg(kind, w, hgt) {
  return h('svg:svg', {class: 'howto-drawing', 'data-fig': kind, viewBox: `0 0 ${w} ${hgt}`,
    width: w, height: hgt, 'aria-hidden': 'true'});
}

function figureOf(g) {
  let svg;
  let caption;
  const ok = (n, to) => !illegal(g, [BigInt(n)], to.map(BigInt));
  if (isCoinGame(g) && g.board === 'grid') {
    // the four corners of a rectangle, the far one from heads to tails
    svg = figSvg('grid', 200, 90);
    const cellAt = (x0, x, y) => [x0 + x * 18 + 9, 80 - y * 18 - 9];
    for (const [x0, after] of [[0, false], [110, true]]) {
      for (let x = 0; x < 4; x++) {
        for (let y = 0; y < 4; y++) {
          // heads at (1,1) and (3,3) before; the corners turned
          const corner = (x === 1 || x === 3) && (y === 1 || y === 3);
          const before = x === y && (x === 1 || x === 3);
          const head = after ? before !== corner : before;
          const [cx, cy] = cellAt(x0, x, y);
          svg.append(h('svg:circle', {cx, cy, r: 7, class: 'fig-coin' + (head ? ' fig-head' : '') + (corner && !after ? ' fig-turn' : '')}));
        }
      }
    }
    figArrow(svg, 80, 45);
    caption = T(g.family === 'corners' ? 'fig.grid' : 'fig.tartan');
  } else if (isCoinGame(g)) {
    // a row of coins: the largest coin turned goes from heads to tails
    svg = figSvg('row', 290, 60);
    const turned = g.family === 'ruler' ? [4, 5] : [3, 5];
    const heads = [[2, 5], [2, turned[0]]];
    heads.forEach((hs, line) => {
      for (let j = 1; j <= 6; j++) {
        const turn = line === 0 && turned.includes(j);
        const cx = 14 + (j - 1) * 20 + line * 160;
        svg.append(h('svg:circle', {cx, cy: 30, r: 8, class: 'fig-coin' + (hs.includes(j) ? ' fig-head' : '') + (turn ? ' fig-turn' : '')}));
        svg.append(h('svg:text', {x: cx, y: 50, class: 'fig-num'}, String(j)));
      }
    });
    figArrow(svg, 128, 30);
    caption = T(g.family === 'ruler' ? 'fig.row.ruler' : 'fig.row');
  } else if (g.arity === 2) {
    // Wythoff's queen: left, down, or diagonally towards the corner
    svg = figSvg('queen', 110, 100);
    const D = 18;
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        svg.append(h('svg:rect', {x: 10 + x * D, y: 5 + (4 - y) * D, width: D, height: D,
          class: 'fig-sq' + ((y === 3 && x < 4) || (x === 4 && y < 3) || (x - y === 1 && x < 4) ? ' fig-reach' : '')}));
      }
    }
    const at = (x, y) => [10 + x * D + D / 2, 5 + (4 - y) * D + D / 2];
    const [qx, qy] = at(4, 3);
    for (const [x, y] of [[0, 3], [4, 0], [1, 0]]) {
      const [tx, ty] = at(x, y);
      svg.append(h('svg:line', {x1: qx, y1: qy, x2: tx, y2: ty, class: 'fig-arrow'}));
    }
    svg.append(h('svg:text', {x: qx, y: qy + 6, class: 'fig-queen'}, '\u265b'));
    caption = T(S.misere ? 'fig.queen.misere' : 'fig.queen');
  } else if (g.arity === 0) {
    // Moore's Nim: counters taken from several piles at once
    const m = /^moore:(\d+)/.exec(g.spec);
    const k = m ? Number(m[1]) : 2;
    svg = figSvg('many', 120, 70);
    [[4, 1], [3, 0], [5, 2]].forEach(([n, t], r) => {
      const take = r === 0 || (r === 2 && k >= 2) ? t : 0;
      figCounters(svg, 10, 12 + r * 22, n, n - take, n);
    });
    caption = T('fig.many', {k, m: k >= 2 ? 2 : 1});
  } else if (selMode(g) === 'cut') {
    // Grundy's game: 7 becomes 3 and 4
    svg = figSvg('cut', 310, 30);
    let x = figCounters(svg, 4, 15, 7, 7, 7, 3);
    svg.append(h('svg:line', {x1: 4 + 3 * FIG_D, y1: 3, x2: 4 + 3 * FIG_D, y2: 27, class: 'fig-split'}));
    x = figArrow(svg, x + 4, 15);
    x = figCounters(svg, x, 15, 3);
    figCounters(svg, x + 12, 15, 4, 4, 4, 0);
    caption = T('fig.cut');
  } else if (selMode(g) === 'range') {
    // Kayles-like: pins knocked down side by side, the row split in two
    const n = 7;
    const ks = [1, 2, 3].filter((k) => ok(n, [2, n - 2 - k].filter((x) => x > 0)));
    const k = ks.includes(2) ? 2 : ks[0] || 1;
    svg = figSvg('range', 330, 30);
    let x = figCounters(svg, 4, 15, n, 2, 2 + k);
    x = figArrow(svg, x + 4, 15);
    x = figCounters(svg, x, 15, 2);
    figCounters(svg, x + 14, 15, n - 2 - k);
    caption = ks.length ? T('fig.range', {list: orList(ks), n, a: 2, b: n - 2 - k}) : T('fig.takes.none', {n});
  } else if (!g.local) {
    // a take-and-break game (the server checks its moves): a take
    svg = figSvg('take', 160, 24);
    figCounters(svg, 4, 12, 6, 4, 6);
    caption = T('fig.take');
  } else {
    // one heap: the takes its rules allow (Nim: any number)
    const n = g.family === 'nim' ? 5 : 6;
    const ks = g.family === 'nim' ? [2] : [1, 2, 3, 4, 5, 6].filter((k) => ok(n, n - k ? [n - k] : []) || ok(n, [n - k]));
    const show = ks.slice(0, 3);
    svg = figSvg(g.family === 'nim' ? 'nim' : 'takes', 160, 12 + 22 * Math.max(1, show.length));
    show.forEach((k, r) => {
      figCounters(svg, 4, 12 + r * 22, n, n - k, n);
      figText(svg, 4 + n * FIG_D + 8, 12 + r * 22, `\u2212${k}`);
    });
    caption = g.family === 'nim' ? T('fig.nim')
      : ks.length ? T('fig.takes', {n, list: orList(ks)}) : T('fig.takes.none', {n});
  }
  return h('figure', {class: 'howto-fig', 'data-game': g.spec}, svg, h('figcaption', {}, caption));
}

function selMode(g) {
  if (g.family === 'grundy') return 'cut';
  if (g.family === 'octal' && g.split) return 'range';
  return 'tail';
}

// Which counters of row r of component i are chosen (a predicate).
function chosen(i, r) {
  if (!S.sel || S.sel.comp !== i || !S.sel.rows[r]) return () => false;
  const s = S.sel.rows[r];
  if (s.kind === 'tail') return (j) => j >= s.from;
  if (s.kind === 'range') return (j) => j >= s.a && j <= s.b;
  if (s.kind === 'cut') return (j) => j >= s.at;
  return () => false;
}

function rowLabel(c, i, r) {
  if (c.game.arity === 2) return T(r === 0 ? 'row.first' : 'row.second', {name: compName(c.game, i)});
  if (c.game.arity === 0) return T('row.pile', {name: compName(c.game, i), n: r + 1});
  return compName(c.game, i);
}

function selectionWords(i, r, n) {
  const s = S.sel && S.sel.comp === i ? S.sel.rows[r] : null;
  if (!s) return T('sel.none');
  if (s.kind === 'tail') return T('sel.tail', {k: BigInt(n) - BigInt(s.from), left: s.from});
  if (s.kind === 'range') return T('sel.range', {a: s.a + 1, b: s.b + 1});
  if (s.kind === 'cut') return T('sel.cut', {a: s.at, b: Number(n) - s.at});
  return T('sel.typed');
}

// The value of leaving component i (page index) as `to`, from the move
// values, or undefined.
function valueOf(i, to) {
  if (!S.values || !S.values.map || S.values.key !== analysisKey()) return undefined;
  const c = S.comps[i];
  // an emptied heap of a game that drops empty heaps leaves no number
  const drop = dropsEmpty(c.game) && to.length === 1 && to[0] === 0n;
  return S.values.map.get(`${apiIndex(S.comps, i)}:${drop ? '' : to.join(',')}`);
}

function valueWords(v) {
  if (!v || v.outcome === null || v.outcome === undefined) return T('value.unknown');
  const r = remotenessOf(v.remoteness);
  const win = v.outcome === 'P';
  return r === null ? T(win ? 'value.wins' : 'value.loses') : T(win ? 'value.winsin' : 'value.losesin', {n: r + 1n});
}

function drawRow(c, i, r) {
  const n = c.nums[r];
  const label = rowLabel(c, i, r);
  if (n > DRAW_MAX) {
    const id = `field-${i}-${r}`;
    const s = S.sel && S.sel.comp === i ? S.sel.rows[r] : null;
    const input = h('input', {
      id, class: 'bigpile', type: 'text', inputmode: 'numeric', autocomplete: 'off',
      spellcheck: 'false', 'data-comp': i, 'data-row': r,
      value: s && s.kind === 'field' ? s.text : String(n),
      'aria-describedby': id + '-help',
      disabled: !humanTurn(),
    });
    input.addEventListener('input', () => {
      if (!humanTurn()) return;
      if (!S.sel || S.sel.comp !== i) S.sel = {comp: i, rows: {}};
      S.sel.rows[r] = {kind: 'field', text: input.value};
      updateButtons();
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        take();
      }
    });
    const digits = String(n).length;
    const tail = selMode(c.game) === 'tail';
    if (tail) {
      input.value = s && s.kind === 'field' ? s.text : '';
      input.setAttribute('placeholder', T('big.placeholder'));
    }
    return h('div', {class: 'row-big'},
      h('span', {class: 'row-label big'}, `${label}: ${n}`),
      h('label', {for: id}, tail
        ? T('big.tail', {name: label, digits})
        : T('big.heaps', {name: label, digits})),
      input,
      h('span', {id: id + '-help', class: 'help'},
        tail ? T('big.range', {n}) : T('big.left')));
  }
  const count = Number(n);
  const mode = selMode(c.game);
  // pins closer together on a desktop, so that Kayles 40 is one line
  const D = mode !== 'tail' && !phone() ? 20 : cell();
  // a heap whose moves take counters side by side or split it (Kayles,
  // Dawson's Kayles, Grundy's game) is one row of pins, where adjacency
  // is the game: as long a line as the screen holds, and where it must
  // wrap, a mark at the end of the line says the row goes on; a pile of
  // Nim is a block of COLS a line
  const row = mode !== 'tail';
  const room = $('piles').clientWidth || 600;
  const fit = Math.floor((room - 8) / (D + (row ? 0 : 6)));
  let cols = row ? Math.max(5, fit) : Math.max(5, Math.min(COLS, fit));
  // the computer's last move: the counters it took, fading out
  const fl = S.flash && S.flash.id === S.gameId && S.flash.i === i && S.flash.n === 1 &&
    mode === 'tail' && S.flash.before[r] <= DRAW_MAX ? Number(S.flash.before[r]) : count;
  const shown = Math.max(count, fl);
  // a part of a sum is a board of its own, as wide as its counters
  if (S.spec === 'sum') cols = Math.max(1, Math.min(cols, shown));
  if (row && shown > cols) cols = Math.max(4, cols - 1); // a cell for the mark
  const lines = Math.max(1, Math.ceil(shown / cols));
  const width = (cols + (row && lines > 1 ? 1 : 0)) * D;
  const height = lines * D;
  const isChosen = chosen(i, r);
  const sel = S.sel && S.sel.comp === i ? S.sel.rows[r] : null;
  const svg = h('svg:svg', {
    class: 'pile' + (row ? ' pins' : ''), viewBox: `0 0 ${width} ${height}`, width, height,
    tabindex: humanTurn() ? 0 : -1, role: 'slider',
    'aria-label': T('pile.label', {name: label, n: count}),
    'aria-valuemin': 0, 'aria-valuemax': count,
    'aria-valuenow': count - (sel && sel.kind === 'tail' ? sel.from : count),
    'aria-valuetext': selectionWords(i, r, n),
    'data-comp': i, 'data-row': r,
  });
  if (count === 0 && shown === 0) {
    svg.append(h('svg:text', {x: 4, y: D * 0.7, class: 'empty'}, T('pile.empty')));
  }
  for (let l = 0; row && l + 1 < lines; l++) {
    const mark = h('svg:text', {x: cols * D + D / 2, y: l * D + D * 0.68, class: 'cont'}, '\u21b5');
    mark.append(h('svg:title', {}, T('pile.cont')));
    svg.append(mark);
  }
  const showVal = S.showValues && !S.view;
  for (let j = 0; j < shown; j++) {
    const cx = (j % cols) * D + D / 2;
    const cy = Math.floor(j / cols) * D + D / 2;
    if (j >= count) {
      svg.append(h('svg:circle', {cx, cy, r: D * RADIUS(), class: 'counter gone', 'data-gone': j}));
      continue;
    }
    const v = showVal ? counterValue(c, i, r, j) : null;
    const vclass = v ? (v.win ? ' v-win' : ' v-lose') : '';
    // Grundy's game: the counters after the split point are the second
    // heap, drawn as a heap, not as counters taken
    const part2 = sel && sel.kind === 'cut' && j >= sel.at;
    const circle = h('svg:circle', {
      cx, cy, r: D * RADIUS(),
      class: 'counter' + (part2 ? ' part2' : isChosen(j) ? ' chosen' : '') + vclass,
      'data-j': j,
    });
    circle.append(h('svg:title', {}, T('pile.counter', {name: label, n: j + 1}) + (v ? `: ${v.words}` : '')));
    svg.append(circle);
  }
  if (sel && sel.kind === 'cut' && sel.at > 0 && sel.at < count) {
    const x = (sel.at % cols) * D;
    const y = Math.floor(sel.at / cols) * D;
    svg.append(h('svg:line', {x1: x, y1: y + 1, x2: x, y2: y + D - 1, class: 'split'}));
  }
  svg.addEventListener('click', (e) => {
    const t = e.target.closest('circle');
    if (t && t.hasAttribute('data-j')) pick(i, r, Number(t.getAttribute('data-j')));
  });
  svg.addEventListener('keydown', (e) => rowKey(e, i, r, count));
  return h('div', {class: 'row-drawn' + (row ? ' pin-row' : '')}, h('span', {class: 'row-label'}, `${label}: ${count}`), svg);
}

// The value shown on counter j of row r of component i, from the move
// values: {win, words}, or null where no move is made from there.
//  - taking from the end (Nim, subtraction games, Wythoff's piles, Moore's
//    Nim): the move that leaves j counters in this row, with whatever is
//    chosen in the other rows (Wythoff's both piles, Moore's several);
//  - taking side by side (Kayles): the moves that take this pin and, where
//    the rules allow, the next one: green if one of them wins;
//  - splitting (Grundy's game): splitting the heap before this counter.
function counterValue(c, i, r, j) {
  const mode = selMode(c.game);
  const n = Number(c.nums[r]);
  const sorted = (xs) => xs.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const tries = [];
  if (mode === 'tail') {
    const to = c.nums.slice();
    const sel = S.sel && S.sel.comp === i ? S.sel.rows : {};
    for (const [k, s] of Object.entries(sel)) if (Number(k) !== r && s.kind === 'tail') to[Number(k)] = BigInt(s.from);
    to[r] = BigInt(j);
    tries.push({to, what: T('try.here')});
  } else if (mode === 'range') {
    for (let b = j; b <= j + 1 && b < n; b++) {
      tries.push({to: sorted([BigInt(j), BigInt(n - 1 - b)].filter((x) => x > 0n)),
        what: b === j ? T('try.pin') : T('try.pins')});
    }
  } else if (j > 0) {
    tries.push({to: sorted([BigInt(j), BigInt(n - j)]), what: T('try.split')});
  }
  const found = [];
  for (const t of tries) {
    if (illegal(c.game, c.nums, t.to)) continue;
    const v = valueOf(i, t.to);
    if (v && v.outcome) found.push({win: v.outcome === 'P', words: `${t.what} ${valueWords(v)}`});
  }
  if (found.length === 0) return null;
  return {win: found.some((f) => f.win), words: found.map((f) => f.words).join('; ')};
}

// ---------------------------------------------------- the queen's grid

// Wythoff's game as "Corner the Queen": the pair (x, y) is a queen on a
// grid, column x and row y, (0, 0) in the bottom-left corner; a move
// takes her left, down or diagonally towards the corner (as the rules
// allow: the squares the page's rule check accepts are highlighted).
// Choosing a square chooses both piles at once; Take (or the same square
// again) moves.  With the move values on, the squares are green where the
// move wins (a safe pair) and red where it loses.
const QUEEN_MAX = 40n; // a larger pair is drawn as two piles

const queenFits = (c) => c.game.family === 'wythoff' && c.nums.length === 2 &&
  c.nums[0] <= QUEEN_MAX && c.nums[1] <= QUEEN_MAX;

// The safe pairs' lines on the queen's grid.  The safe pairs of
// Wythoff's game with parameter a are (A_n, B_n), A_n = floor(n alpha),
// B_n = floor(n beta), beta = alpha + a (Wythoff 1907, sec. 5-7; alpha is
// the golden ratio phi when a = 1, beta = phi^2): the point (n alpha,
// n beta) lies in the square (A_n, B_n) when square (x, y) spans [x, x+1)
// x [y, y+1).  So the line y = (beta/alpha) x from the grid's corner
// crosses every safe square above the diagonal, and its mirror every one
// below: each safe square is ringed, and the two lines drawn.
function drawGolden(svg, a, cols, rows, L, D) {
  const A = Number(a);
  const alpha = (2 - A + Math.sqrt(A * A + 4)) / 2;
  const beta = alpha + A;
  const px = (u) => L + u * D;
  const py = (v) => (rows + 1 - v) * D;
  const w = cols + 1;
  const hgt = rows + 1;
  for (const k of [beta / alpha, alpha / beta]) {
    // from (0, 0) to where y = k x leaves the grid
    const u = Math.min(w, hgt / k);
    svg.append(h('svg:line', {x1: px(0), y1: py(0), x2: px(u), y2: py(u * k), class: 'golden'}));
  }
  for (const [p, q] of safeSquares(A, cols, rows)) {
    svg.append(h('svg:circle', {cx: px(p + 0.5), cy: py(q + 0.5), r: D * 0.2, class: 'safe-mark',
      'data-x': p, 'data-y': q}));
  }
}

// The safe squares (P-positions) of Wythoff's game with parameter A on
// the grid of columns 0..cols and rows 0..rows, as [[x, y]]: the pairs
// (x, x + A n) and their mirrors, x the least number not yet used, by the
// mex rule that defines them (Wythoff 1907, sec. 5; Fraenkel 1982 for A).
function safeSquares(A, cols, rows) {
  const out = [];
  const used = new Set();
  for (let n = 0, x = 0; x <= Math.max(cols, rows); n++) {
    while (used.has(x)) x++;
    const y = x + A * n;
    used.add(x);
    used.add(y);
    for (const [p, q] of x === y ? [[x, y]] : [[x, y], [y, x]]) {
      if (p <= cols && q <= rows) out.push([p, q]);
    }
    x++;
  }
  return out;
}

// The safe squares (P-positions: whoever moves the queen there wins) of
// the grid 0..cols x 0..rows, as a Set of "x,y", from the rules alone: a
// square is safe when no move from it reaches a safe square, and in misère
// play the corner (0, 0), where the player to move has no move and so
// wins, is not.  A move takes any number from one pile, or k and l >= 1
// from both with |k - l| < A.  At most 41 x 41 squares (QUEEN_MAX).
function safeGrid(A, cols, rows, misere) {
  const P = [];
  for (let x = 0; x <= cols; x++) {
    P.push([]);
    for (let y = 0; y <= rows; y++) {
      let p = !(misere && x === 0 && y === 0);
      for (let u = 0; p && u < x; u++) if (P[u][y]) p = false;
      for (let v = 0; p && v < y; v++) if (P[x][v]) p = false;
      for (let k = 1; p && k <= x; k++) {
        for (let l = Math.max(1, k - A + 1); p && l <= Math.min(y, k + A - 1); l++) if (P[x - k][y - l]) p = false;
      }
      P[x].push(p);
    }
  }
  const out = new Set();
  for (let x = 0; x <= cols; x++) for (let y = 0; y <= rows; y++) if (P[x][y]) out.add(`${x},${y}`);
  return out;
}

function drawQueen(c, i) {
  const a = Number(c.nums[0]);
  const b = Number(c.nums[1]);
  const room = $('piles').clientWidth || 600;
  const n = Math.max(a, b) + 1;
  const D = Math.max(16, Math.min(phone() ? 44 : 34, Math.floor((room - 30) / n)));
  const cols = a + 1;
  const rowsN = b + 1;
  const L = 22; // room for the row numbers
  const width = L + cols * D;
  const height = rowsN * D + 18;
  const sel = S.sel && S.sel.comp === i ? S.sel.rows : {};
  const at = [sel[0] ? sel[0].from : a, sel[1] ? sel[1].from : b];
  const label = S.spec === 'sum' ? compName(c.game, i) : T('queen.name');
  const svg = h('svg:svg', {class: 'queen', viewBox: `0 0 ${width} ${height}`, width, height,
    role: 'group', 'data-comp': i, 'data-row': 0, tabindex: humanTurn() ? 0 : -1,
    'aria-label': T('queen.label', {name: label, a, b, x: at[0], y: at[1]}) + ' ' + T('queen.keys')});
  const showVal = S.showValues && S.view === null;
  // with the values on, every safe square of the grid is shown, also
  // those the queen cannot reach from here: the goal of the whole game
  const safe = showVal ? safeGrid(Number(c.game.a || 1n), a, b, S.misere) : new Set();
  for (let y = 0; y < rowsN; y++) {
    const py = (b - y) * D;
    svg.append(h('svg:text', {x: L - 4, y: py + D / 2 + 4, class: 'axis-label q-row'}, String(y)));
    for (let x = 0; x < cols; x++) {
      const px = L + x * D;
      const to = [BigInt(x), BigInt(y)];
      const here = x === a && y === b;
      const reach = !here && !illegal(c.game, c.nums, to);
      let cls = 'sq' + ((x + y) % 2 ? ' dark' : '') + (reach ? ' reach' : '');
      let words = T('queen.square', {x, y});
      if (reach && showVal) {
        const v = valueOf(i, to);
        if (v && v.outcome) {
          cls += v.outcome === 'P' ? ' v-win' : ' v-lose';
          words += `: ${T('queen.moving', {words: valueWords(v)})}`;
        }
      }
      if (!here && x === at[0] && y === at[1]) cls += ' chosen';
      const p = safe.has(`${x},${y}`);
      if (p) {
        cls += ' p-square';
        words += ` (${T('queen.safe')})`;
      }
      const r = h('svg:rect', {x: px, y: py, width: D, height: D, class: cls, 'data-x': x, 'data-y': y});
      r.append(h('svg:title', {}, here ? T('queen.here', {x, y}) + (p ? ` (${T('queen.safe')})` : '') : words));
      svg.append(r);
      if (p) {
        svg.append(h('svg:text', {x: px + D / 2, y: py + D * 0.62, 'font-size': Math.round(D * 0.4),
          class: 'p-mark' + (cls.includes('v-win') ? ' on-win' : ''), 'aria-hidden': 'true'}, 'P'));
      }
    }
  }
  for (let x = 0; x < cols; x++) {
    svg.append(h('svg:text', {x: L + x * D + D / 2, y: rowsN * D + 14, class: 'axis-label'}, String(x)));
  }
  if (S.golden) drawGolden(svg, c.game.a || 1n, a, b, L, D);
  svg.append(h('svg:text', {x: L + a * D + D / 2, y: D * 0.8, 'font-size': Math.round(D * 0.8), class: 'queen-mark'}, '\u265b'));
  svg.addEventListener('click', (e) => {
    const t = e.target.closest('rect.reach');
    if (!t || !humanTurn()) return;
    const x = Number(t.getAttribute('data-x'));
    const y = Number(t.getAttribute('data-y'));
    if (S.sel && S.sel.comp === i && x === at[0] && y === at[1]) {
      take();
      return;
    }
    $('move-error').textContent = '';
    S.sel = {comp: i, rows: {}};
    if (x !== a) S.sel.rows[0] = {kind: 'tail', from: x};
    if (y !== b) S.sel.rows[1] = {kind: 'tail', from: y};
    render();
  });
  svg.addEventListener('keydown', (e) => {
    if (!humanTurn()) return;
    let [x, y] = at;
    switch (e.key) {
      case 'ArrowLeft': x = Math.max(0, x - 1); break;
      case 'ArrowRight': x = Math.min(a, x + 1); break;
      case 'ArrowDown': y = Math.max(0, y - 1); break;
      case 'ArrowUp': y = Math.min(b, y + 1); break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        if (S.sel) take();
        return;
      case 'Escape':
        e.preventDefault();
        clearSel();
        return;
      default:
        return;
    }
    e.preventDefault();
    S.sel = {comp: i, rows: {}};
    if (x !== a) S.sel.rows[0] = {kind: 'tail', from: x};
    if (y !== b) S.sel.rows[1] = {kind: 'tail', from: y};
    if (Object.keys(S.sel.rows).length === 0) S.sel = null;
    render();
  });
  return h('div', {class: 'row-drawn queen-drawn'},
    h('span', {class: 'row-label coin-label'}, T('queen.at', {name: label, a, b})), svg);
}

// ------------------------------------------------------------ coin boards

// A coin game (GET /v1/games' board "row" or "grid") is drawn as its
// coins, heads and tails; the player chooses the coins to turn and
// confirms, and the move is sent as the heads it leaves (the server
// checks it).  A coin is named by its key: "n" in a row, "x,y" on a grid.
const ROW_MAX = 96n; // a row reaching past this many coins is written as text
const GRID_MAX = 24n; // the same for each side of a grid

const cmpBig = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// The heads of component c as [[x] or [x, y]] (a ghost has none).
function headsOf(c) {
  if (c.ghost) return [];
  const w = c.game.board === 'grid' ? 2 : 1;
  const out = [];
  for (let k = 0; k + w <= c.nums.length; k += w) out.push(c.nums.slice(k, k + w));
  return out;
}

const coinKey = (xy) => xy.map(String).join(',');
const keyCoin = (k) => k.split(',').map((x) => BigInt(x));

// The heads left by turning the coins `turned` (keys) of c, sorted as the
// server writes them (by x, then y), flattened into numbers.
function coinsAfter(c, turned) {
  const set = new Set(headsOf(c).map(coinKey));
  for (const k of turned) {
    if (set.has(k)) set.delete(k);
    else set.add(k);
  }
  return coinNums([...set]);
}

function coinNums(keys) {
  return keys.map(keyCoin)
    .sort((a, b) => cmpBig(a[0], b[0]) || (a.length > 1 ? cmpBig(a[1], b[1]) : 0))
    .flat();
}

// The coins (keys) a move of c to `to` turns: the heads that change.
function turnedBy(c, to) {
  const w = c.game.board === 'grid' ? 2 : 1;
  const before = new Set(headsOf(c).map(coinKey));
  const after = new Set();
  for (let k = 0; k + w <= to.length; k += w) after.add(coinKey(to.slice(k, k + w)));
  const out = new Set();
  for (const k of before) if (!after.has(k)) out.add(k);
  for (const k of after) if (!before.has(k)) out.add(k);
  return out;
}

// The words of a coin: "coin 7" or "coin (3,5)".
const coinWords = (k) => (k.includes(',') ? T('coin.xy', {k}) : T('coin.n', {k}));

// The drawn extent of the coin components: the largest coordinate of each
// axis over the start and the position, so the board keeps its size as
// heads go.
function coinSpan(c) {
  const max = [-1n, -1n];
  const first = firstCoin(c.game);
  const limit = c.game.board === 'grid' ? GRID_MAX : ROW_MAX;
  const seen = [...S.history[0].comps, ...S.comps].filter((x) => x.game.spec === c.game.spec);
  for (const x of seen) {
    for (const h of headsOf(x)) {
      // a start too far along to draw sizes no later board
      for (let a = 0; a < h.length; a++) if (h[a] > max[a] && h[a] - first[a] < limit) max[a] = h[a];
    }
  }
  return max;
}

// The winning moves to mark on the board of component i: from the hint
// and from the move values, each as the set of coins it turns.
function winningTurns(i) {
  const c = S.comps[i];
  const k = apiIndex(S.comps, i);
  const out = [];
  const key = analysisKey();
  if (S.hintMarks && S.hintMarks.key === key) {
    for (const m of S.hintMarks.moves) if (m.component === k) out.push(turnedBy(c, m.to.map((x) => BigInt(x))));
  }
  if (S.showValues && S.values && S.values.key === key && S.values.list) {
    for (const m of S.values.list) {
      if (m.component === k && m.outcome === 'P') out.push(turnedBy(c, m.to.map((x) => BigInt(x))));
    }
  }
  return out;
}

function chosenCoins(i) {
  return S.sel && S.sel.comp === i && S.sel.coins ? S.sel.coins : new Set();
}

function coinCell() {
  return phone() ? 44 : 34;
}

function drawCoins(c, i) {
  const grid = c.game.board === 'grid';
  const first = firstCoin(c.game);
  const span = coinSpan(c);
  const label = S.spec === 'sum' ? compName(c.game, i) : T('coins.name');
  const heads = headsOf(c);
  const far = heads.some((h) => h[0] - first[0] >= (grid ? GRID_MAX : ROW_MAX) ||
    (grid && h[1] - first[1] >= GRID_MAX));
  if (far) return drawCoinsText(c, i, label, heads, grid);
  const headSet = new Set(heads.map(coinKey));
  const chosen = chosenCoins(i);
  const marks = winningTurns(i);
  const win = new Set(marks.flatMap((s) => [...s]));
  const flashed = S.flash && S.flash.id === S.gameId && S.flash.i === i && !S.view
    ? turnedBy({game: c.game, nums: S.flash.before}, c.ghost ? [] : c.nums) : new Set();
  const D = coinCell();
  const R = D * 0.4;
  // a row: two tails past the largest head (at least 8 coins), in lines
  // that fit the screen; a grid: one more line and column than the heads
  // reach (at least 4 x 4), with the coordinates on its edges
  let w;
  let hgt;
  let cols;
  let pos; // index -> [cx, cy]
  let keyAt; // index -> key
  const room = $('piles').clientWidth || 600;
  if (!grid) {
    const n = Math.max(8, Number(span[0] - first[0]) + 3);
    cols = Math.max(5, Math.min(n, Math.floor((room - 8) / (D + 4))));
    w = n;
    hgt = Math.ceil(n / cols);
    pos = (j) => [(j % cols) * D + D / 2, Math.floor(j / cols) * D + D / 2];
    keyAt = (j) => String(first[0] + BigInt(j));
  } else {
    w = Math.max(4, Number(span[0] - first[0]) + 2);
    hgt = Math.max(4, Number(span[1] - first[1]) + 2);
    cols = w;
    pos = (j) => [D + (j % w) * D + D / 2, D * 0.7 + Math.floor(j / w) * D + D / 2];
    keyAt = (j) => `${first[0] + BigInt(j % w)},${first[1] + BigInt(Math.floor(j / w))}`;
  }
  const count = grid ? w * hgt : w;
  const width = grid ? D + w * D : cols * D;
  const height = grid ? D * 0.7 + hgt * D : hgt * D;
  if (!S.cursor || S.cursor.comp !== i || S.cursor.j >= count) {
    // the keyboard's cursor starts on the largest head (the top of a move)
    let j = 0;
    for (let t = 0; t < count; t++) if (headSet.has(keyAt(t))) j = t;
    S.cursor = {comp: i, j};
  }
  const svg = h('svg:svg', {
    class: 'coins' + (grid ? ' grid' : ' row'), viewBox: `0 0 ${width} ${height}`, width, height,
    tabindex: humanTurn() ? 0 : -1, role: 'group',
    'aria-label': T('coins.heads', {name: label, n: heads.length}) +
      (heads.length ? ` (${heads.map((x) => coinKey(x)).join('; ')})` : '') +
      T('coins.keys', {n: chosen.size}),
    'data-comp': i, 'data-row': 0,
  });
  if (grid) {
    for (let x = 0; x < w; x++) {
      svg.append(h('svg:text', {x: D + x * D + D / 2, y: D * 0.5, class: 'axis-label'}, String(first[0] + BigInt(x))));
    }
    for (let y = 0; y < hgt; y++) {
      svg.append(h('svg:text', {x: D / 2, y: D * 0.7 + y * D + D / 2 + 4, class: 'axis-label'}, String(first[1] + BigInt(y))));
    }
  }
  for (let j = 0; j < count; j++) {
    const key = keyAt(j);
    const [cx, cy] = pos(j);
    const head = headSet.has(key);
    const cls = ['coin', head ? 'heads' : 'tails', chosen.has(key) ? 'chosen' : '',
      win.has(key) ? 'win' : '', flashed.has(key) ? 'flash' : ''].filter(Boolean).join(' ');
    const g = h('svg:g', {class: cls, 'data-coin': key, 'data-j': j});
    // the whole cell answers a tap (44 px on a phone), not only the face
    g.append(h('svg:rect', {x: cx - D / 2, y: cy - D / 2, width: D, height: D, class: 'hit'}));
    g.append(h('svg:circle', {cx, cy, r: R, class: 'face'}));
    if (!grid) g.append(h('svg:text', {x: cx, y: cy + 4, class: 'coin-num'}, key));
    else g.append(h('svg:text', {x: cx, y: cy + 4, class: 'coin-num'}, head ? T('coin.H') : ''));
    if (S.cursor.comp === i && S.cursor.j === j) {
      svg.append(h('svg:rect', {x: cx - D / 2 + 1, y: cy - D / 2 + 1, width: D - 2, height: D - 2, rx: 4, class: 'cursor'}));
    }
    g.append(h('svg:title', {}, `${coinWords(key)}: ${T(head ? 'coin.heads' : 'coin.tails')}` +
      (chosen.has(key) ? T('coin.chosen') : '') + (win.has(key) ? T('coin.win') : '')));
    svg.append(g);
  }
  svg.addEventListener('click', (e) => {
    const t = e.target.closest('g.coin');
    if (!t) return;
    S.cursor = {comp: i, j: Number(t.getAttribute('data-j'))};
    toggleCoin(i, t.getAttribute('data-coin'));
  });
  svg.addEventListener('keydown', (e) => coinKeyDown(e, i, count, cols));
  const words = heads.length === 0 ? T('coins.alltails')
    : T('coins.headsat', {list: heads.map((x) => (grid ? `(${coinKey(x)})` : coinKey(x))).join(', ')});
  return h('div', {class: 'row-drawn coins-drawn'},
    h('span', {class: 'row-label coin-label'}, `${label}: ${words}`), svg);
}

// Coins too far to draw: the heads as text, and a field for the coins to
// turn (the server checks the move).
function drawCoinsText(c, i, label, heads, grid) {
  const id = `coins-${i}`;
  const s = S.sel && S.sel.comp === i ? S.sel : null;
  const input = h('input', {
    id, class: 'bigpile coinfield', type: 'text', autocomplete: 'off', spellcheck: 'false',
    'data-comp': i, 'data-row': 0, value: s && s.text !== undefined ? s.text : '',
    placeholder: T(grid ? 'coins.ph.grid' : 'coins.ph.row'),
    'aria-describedby': id + '-help', disabled: !humanTurn(),
  });
  input.addEventListener('input', () => {
    if (!humanTurn()) return;
    $('move-error').textContent = ''; // the typing answers it
    S.sel = input.value.trim() ? {comp: i, coins: new Set(), text: input.value} : null;
    updateButtons();
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      take();
    }
  });
  const list = heads.map((x) => (grid ? `(${coinKey(x)})` : coinKey(x))).join(', ');
  return h('div', {class: 'row-big'},
    h('span', {class: 'row-label big'}, `${label}: ${T('coins.headsat', {list})}`),
    h('label', {for: id}, T(grid ? 'coins.far.grid' : 'coins.far.row', {name: label === T('coins.name') ? T('coins.board') : label, n: grid ? GRID_MAX : ROW_MAX})),
    input,
    h('span', {id: id + '-help', class: 'help'}, grid
      ? T('coins.help.grid')
      : T('coins.help.row')));
}

function toggleCoin(i, key) {
  if (!humanTurn()) return;
  $('move-error').textContent = '';
  if (!S.sel || S.sel.comp !== i || !S.sel.coins) S.sel = {comp: i, coins: new Set()};
  if (S.sel.coins.has(key)) S.sel.coins.delete(key);
  else S.sel.coins.add(key);
  if (S.sel.coins.size === 0) S.sel = null;
  render();
}

function coinKeyDown(e, i, count, cols) {
  if (!humanTurn()) return;
  const j = S.cursor && S.cursor.comp === i ? S.cursor.j : 0;
  let to = j;
  switch (e.key) {
    case 'ArrowRight': to = Math.min(count - 1, j + 1); break;
    case 'ArrowLeft': to = Math.max(0, j - 1); break;
    case 'ArrowDown': to = j + cols < count ? j + cols : j; break;
    case 'ArrowUp': to = j - cols >= 0 ? j - cols : j; break;
    case 'Home': to = 0; break;
    case 'End': to = count - 1; break;
    case ' ':
    case 'Spacebar': {
      e.preventDefault();
      const t = e.currentTarget.querySelector(`g.coin[data-j="${j}"]`);
      if (t) toggleCoin(i, t.getAttribute('data-coin'));
      return;
    }
    case 'Enter':
      e.preventDefault();
      if (S.sel) take();
      return;
    case 'Escape':
      e.preventDefault();
      clearSel();
      return;
    default:
      return;
  }
  e.preventDefault();
  S.cursor = {comp: i, j: to};
  render();
}

// The coins chosen, in words, under the board.
function coinSelWords() {
  if (!S.sel || !S.sel.coins || S.sel.coins.size === 0) return '';
  const c = S.comps[S.sel.comp];
  const heads = new Set(headsOf(c).map(coinKey));
  const keys = [...S.sel.coins].sort((a, b) => {
    const x = keyCoin(a);
    const y = keyCoin(b);
    return cmpBig(x[0], y[0]) || (x.length > 1 ? cmpBig(x[1], y[1]) : 0);
  });
  const w = (k) => (k.includes(',') ? `(${k})` : k);
  const down = keys.filter((k) => heads.has(k));
  const up = keys.filter((k) => !heads.has(k));
  const parts = [];
  if (down.length) parts.push(T('coins.totails', {list: down.map(w).join(', ')}));
  if (up.length) parts.push(T('coins.toheads', {list: up.map(w).join(', ')}));
  return T('coins.chosen', {list: parts.join('; ')});
}

// The coins typed in the field of a board too big to draw, as keys.
function typedCoins(c, text) {
  const grid = c.game.board === 'grid';
  const parts = text.trim().split(/\s+/).filter((x) => x !== '');
  const keys = [];
  for (const p of parts) {
    const m = grid ? /^\(?(\d+),(\d+)\)?$/.exec(p) : /^(\d+)$/.exec(p);
    if (!m) {
      throw new Error(T(grid ? 'coins.type.grid' : 'coins.type.row', {p}));
    }
    const k = grid ? `${BigInt(m[1])},${BigInt(m[2])}` : String(BigInt(m[1]));
    if (keys.includes(k)) throw new Error(T('coins.twice', {coin: coinWords(k)}));
    keys.push(k);
  }
  if (keys.length === 0) throw new Error(T('coins.none'));
  return keys;
}

// The marks of the winning move under the pointer or the focus of the
// hint's list: the coins it turns, outlined on the board.
function markHintMove(m) {
  for (const el of $('piles').querySelectorAll('g.coin.focus-win')) el.classList.remove('focus-win');
  if (!m) return;
  const i = pageIndex(S.comps, m.component);
  const c = S.comps[i];
  if (!c || !isCoinGame(c.game)) return;
  const svg = $('piles').querySelector(`svg.coins[data-comp="${i}"]`);
  if (!svg) return;
  for (const k of turnedBy(c, m.to.map((x) => BigInt(x)))) {
    const el = svg.querySelector(`g.coin[data-coin="${k}"]`);
    if (el) el.classList.add('focus-win');
  }
}

function render() {
  drawSetup();
  drawRules();
  drawHowTo();
  $('board-help').textContent = boardHelp();
  const active = document.activeElement;
  const focused = active && active.getAttribute && $('piles').contains(active)
    ? [active.getAttribute('data-comp'), active.getAttribute('data-row')]
    : null;
  const box = clear($('piles'));
  const saved = S.view !== null ? {comps: S.comps, sel: S.sel} : null;
  if (saved) {
    S.comps = S.history[S.view].comps;
    S.sel = null;
  }
  box.classList.toggle('past', saved !== null);
  S.comps.forEach((c, i) => {
    const rows = [];
    if (isCoinGame(c.game)) rows.push(drawCoins(c, i));
    else if (S.queen && queenFits(c)) rows.push(drawQueen(c, i));
    else for (let r = 0; r < c.nums.length; r++) rows.push(drawRow(c, i, r));
    const moved = S.flash && S.flash.id === S.gameId && !saved && i >= S.flash.i && i < S.flash.i + S.flash.n;
    box.append(h('div', {class: 'comp' + (S.sel && S.sel.comp === i ? ' active' : '') +
      (c.nums.length > 1 && !isCoinGame(c.game) ? ' two-piles' : '') +
      (moved ? ' moved' : ''), role: 'group',
      'aria-label': `${compName(c.game, i)} (${c.game.spec})`},
      S.spec === 'sum' ? compTitle(c.game) : null, rows));
  });
  // a sum: each part its own board, side by side where they fit
  box.classList.toggle('sum', S.spec === 'sum');
  if (saved) {
    S.comps = saved.comps;
    S.sel = saved.sel;
  }
  if (focused && focused[0] !== null) {
    const again = box.querySelector(`[data-comp="${focused[0]}"][data-row="${focused[1]}"]`);
    if (again) again.focus();
  }
  $('status').textContent = statusText();
  drawMoveError();
  $('over-box').hidden = !(S.started && S.over && S.view === null);
  $('view-box').hidden = S.view === null;
  if (S.view !== null) {
    $('view-text').textContent = S.view === 0
      ? T('view.start')
      : T('view.after', {k: S.view, n: S.history.length - 1});
    $('view-continue').disabled = S.busy;
  }
  updateButtons();
  $('record').textContent = S.started ? currentRecord() : '';
  drawSelValue();
  drawHistory();
  if (S.showValues) loadValues();
  else $('values-box').hidden = true;
  if ($('analysis').open) analyse();
  saveAddress();
}

// The computer's failed move, with the ways on: retry, undo, new game.
function drawMoveError() {
  const box = $('move-error');
  if (!S.moveError) {
    if (box.querySelector('.retry')) clear(box);
    return;
  }
  clear(box).append(
    h('span', {}, T('err.computer', {why: S.moveError})),
    h('button', {type: 'button', class: 'retry', onclick: () => {
      S.moveError = '';
      maybeComputer();
    }}, T('err.retry')), ' ',
    h('button', {type: 'button', class: 'err-undo', disabled: !canUndo(), onclick: undo}, T('err.undomine')), ' ',
    h('button', {type: 'button', class: 'err-new', onclick: newGameForm}, T('setup.heading')));
}

function newGameForm() {
  S.setupOpen = true;
  drawSetup();
  $('setup').scrollIntoView({block: 'start'});
  $('game').focus();
}

// The setup: the whole form before the first game (or when asked for),
// else one line: "Nim 3 4 5 \u00b7 you vs perfect \u00b7 New game".
function drawSetup() {
  const folded = S.started && !S.setupOpen;
  $('setup-form').hidden = folded;
  $('setup-h').hidden = folded;
  $('setup-line').hidden = !folded;
  $('setup').classList.toggle('folded', folded);
  $('setup-close').hidden = !S.started;
  if (!S.started) return;
  const start = S.history[0].comps;
  const nums = S.spec === 'sum' ? positionText(start) : live(start).flatMap((c) => c.nums.map(String)).join(' ');
  const short = nums.length > 40 ? nums.slice(0, 37) + '\u2026' : nums;
  $('setup-summary').textContent = [`${gameTitle(S.spec)}${S.misere ? T('setup.summary.misere') : ''} ${short}`,
    S.vsComputer ? T('setup.summary.vs', {level: T('level.' + S.level)}) + (S.first === 'B' ? T('setup.summary.cfirst') : '')
      : T('setup.summary.two')].join(' \u00b7 ');
}

// A game's name for people: "Nim", "Kayles", "Subtraction games 1-3".
function gameTitle(spec) {
  if (spec === 'sum') return T('setup.sum');
  const f = familyOf(spec);
  if (!f) return spec;
  const colon = spec.indexOf(':');
  if (colon < 0 && f.name !== spec) {
    // a named game: the name its rules begin with ("Dawson's Kayles: ...")
    const n = f.named.find((x) => x.name === spec);
    const m = n && /^([^:]{2,40}):/.exec(n.rules);
    if (m) return m[1];
    return spec.charAt(0).toUpperCase() + spec.slice(1).replace(/-/g, ' ');
  }
  const title = f.title.replace(/^Bouton's /, '');
  return colon < 0 ? title : `${title} ${spec.slice(colon + 1)}`;
}

// The label of one part of a sum: its game's name ("Kayles", "Nim") and
// its rules' code where they differ, both as the server writes them.
function compTitle(g) {
  const f = familyOf(g.spec);
  const named = f && f.named.find((n) => n.game === g.spec);
  const m = named && /^([^:]{2,40}):/.exec(named.rules);
  const name = m ? m[1] : f && f.name === g.spec ? f.title : gameTitle(g.spec);
  return mark(h('span', {class: 'comp-game'}, h('strong', {class: 'comp-title'}, name),
    name === g.spec ? null : h('code', {}, ` ${g.spec}`)));
}

// The value of the chosen move, when the values are shown.
function drawSelValue() {
  const out = $('sel-value');
  out.textContent = '';
  if (S.sel && S.view === null && S.sel.coins) out.textContent = coinSelWords();
  if (!S.showValues || !S.sel || S.view !== null) return;
  let to;
  try {
    to = pendingTo();
  } catch (e) {
    return;
  }
  const i = S.sel.comp;
  const c = S.comps[i];
  if (illegal(c.game, c.nums, to)) return;
  const v = valueOf(i, to);
  if (v) out.textContent += `${out.textContent ? ' ' : ''}${T('value.chosen', {words: valueWords(v)})}`;
}

// The text of what the analysis panel shows, to redraw it only when the
// position changes (not on every click that chooses counters).
const analysisKey = () => `${S.misere} ${S.comps.length} ${S.comps.map((c) => c.game.spec + ':' + c.nums.join(',')).join(' ')}`;

function statusText() {
  if (!S.started) return T('status.choose');
  if (S.over) return T('status.over', {result: S.result});
  if (S.busy) return T('status.thinking');
  if (S.moveError) return T('status.cantmove');
  if (S.vsComputer) return S.turn === 'A' ? T('status.yours') : T('status.computers');
  return T('status.tomove', {name: S.names[S.turn]});
}

function updateButtons() {
  const canMove = humanTurn();
  $('take').disabled = !canMove || !S.sel;
  $('take').textContent = S.started && S.comps.some((c) => isCoinGame(c.game)) &&
    S.comps.every((c) => isCoinGame(c.game)) ? T('act.turn') : T('act.take');
  $('clear-sel').disabled = !S.sel;
  const queenable = S.started && S.comps.some((c) => c.game.family === 'wythoff');
  $('queen-view').hidden = !queenable;
  $('queen-view').setAttribute('aria-pressed', S.queen ? 'true' : 'false');
  $('golden').hidden = !queenable || !S.queen || !S.comps.some(queenFits);
  $('golden').setAttribute('aria-pressed', S.golden ? 'true' : 'false');
  $('hint').disabled = !S.started || S.over || S.busy || S.view !== null;
  $('undo').disabled = S.busy || !canUndo();
  $('redo').disabled = S.busy || S.future.length === 0 || S.view !== null;
  $('restart').disabled = !S.started || S.history.length < 2;
  $('download').disabled = !S.started;
}

function canUndo() {
  if (!S.started) return false;
  if (!S.vsComputer) return S.history.length > 1;
  return S.history.some((e) => e.mover === 'A');
}

// ------------------------------------------------------------- choosing

function pick(i, r, j) {
  if (!humanTurn()) return;
  $('move-error').textContent = '';
  const c = S.comps[i];
  const mode = selMode(c.game);
  if (S.sel && S.sel.comp !== i) S.sel = null;
  const cur = S.sel ? S.sel.rows[r] : null;
  if (mode === 'tail') {
    if (cur && cur.kind === 'tail' && cur.from === j) return take();
    setRow(i, r, {kind: 'tail', from: j});
  } else if (mode === 'range') {
    if (cur && cur.kind === 'range' && j >= cur.a && j <= cur.b) return take();
    if (cur && cur.kind === 'range') setRow(i, r, {kind: 'range', a: Math.min(cur.a, j), b: Math.max(cur.b, j)});
    else setRow(i, r, {kind: 'range', a: j, b: j});
  } else {
    if (cur && cur.kind === 'cut' && cur.at === j) return take();
    if (j === 0) {
      $('move-error').textContent = T('err.firstcut');
      return;
    }
    setRow(i, r, {kind: 'cut', at: j});
  }
  render();
}

function setRow(i, r, s) {
  if (!S.sel || S.sel.comp !== i) S.sel = {comp: i, rows: {}};
  S.sel.rows[r] = s;
}

function rowKey(e, i, r, count) {
  if (!humanTurn()) return;
  const c = S.comps[i];
  const mode = selMode(c.game);
  const cur = S.sel && S.sel.comp === i ? S.sel.rows[r] : null;
  const more = e.key === 'ArrowRight' || e.key === 'ArrowUp';
  const less = e.key === 'ArrowLeft' || e.key === 'ArrowDown';
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    if (S.sel) take();
    return;
  }
  if (e.key === 'Escape') {
    e.preventDefault();
    clearSel();
    return;
  }
  if (!more && !less && e.key !== 'Home' && e.key !== 'End') return;
  e.preventDefault();
  if (count === 0) return;
  if (mode === 'tail') {
    // the arrows choose how many to take: more takes one more counter
    let from = cur && cur.kind === 'tail' ? cur.from : count;
    if (more) from = Math.max(0, from - 1);
    if (less) from = Math.min(count, from + 1);
    if (e.key === 'End') from = 0;
    if (e.key === 'Home') from = count;
    if (from === count) {
      if (S.sel && S.sel.comp === i) delete S.sel.rows[r];
      if (S.sel && Object.keys(S.sel.rows).length === 0) S.sel = null;
    } else {
      if (S.sel && S.sel.comp !== i) S.sel = null;
      setRow(i, r, {kind: 'tail', from});
    }
  } else if (mode === 'range') {
    // left/right move the chosen counters; up/down choose more or fewer
    let a = cur && cur.kind === 'range' ? cur.a : count - 1;
    let b = cur && cur.kind === 'range' ? cur.b : count - 1;
    if (!cur) {
      a = b = count - 1;
    } else if (e.key === 'ArrowRight' && b + 1 < count) {
      a++;
      b++;
    } else if (e.key === 'ArrowLeft' && a > 0) {
      a--;
      b--;
    } else if (e.key === 'ArrowUp' && b + 1 < count) {
      b++;
    } else if (e.key === 'ArrowDown' && b > a) {
      b--;
    }
    if (S.sel && S.sel.comp !== i) S.sel = null;
    setRow(i, r, {kind: 'range', a, b});
  } else {
    let at = cur && cur.kind === 'cut' ? cur.at : Math.floor(count / 2);
    if (cur && more) at = Math.min(count - 1, at + 1);
    if (cur && less) at = Math.max(1, at - 1);
    if (count < 2) return;
    if (S.sel && S.sel.comp !== i) S.sel = null;
    setRow(i, r, {kind: 'cut', at});
  }
  render();
}

function clearSel() {
  S.sel = null;
  $('move-error').textContent = '';
  render();
}

// The numbers that replace the chosen component, or an error text.
function pendingTo() {
  const i = S.sel.comp;
  const c = S.comps[i];
  if (isCoinGame(c.game)) {
    const keys = S.sel.text !== undefined ? typedCoins(c, S.sel.text) : [...S.sel.coins];
    return coinsAfter(c, keys);
  }
  const mode = selMode(c.game);
  const parseList = (text) => {
    const parts = text.trim().split(/[\s,]+/).filter((x) => x !== '');
    if (!parts.every((x) => /^\d+$/.test(x))) throw new Error(T('big.nums'));
    return parts.map((x) => BigInt(x));
  };
  if (mode === 'tail') {
    const to = [];
    for (let r = 0; r < c.nums.length; r++) {
      const s = S.sel.rows[r];
      if (!s) to.push(c.nums[r]);
      else if (s.kind === 'tail') to.push(BigInt(s.from));
      else {
        // a pile too big to draw: the field says how many to take
        const v = parseList(s.text);
        const name = rowLabel(c, i, r);
        if (v.length !== 1) throw new Error(T('big.one', {name}));
        if (v[0] === 0n) throw new Error(T('err.illegal', {why: T('ill.one')}).replace(/\.$/, ''));
        if (v[0] > c.nums[r]) throw new Error(T('big.toomany', {name, n: c.nums[r], k: v[0]}));
        to.push(c.nums[r] - v[0]);
      }
    }
    return to;
  }
  const s = S.sel.rows[0];
  if (s.kind === 'field') return parseList(s.text);
  const n = Number(c.nums[0]);
  if (s.kind === 'range') return [BigInt(s.a), BigInt(n - 1 - s.b)].filter((x) => x > 0n);
  return [BigInt(s.at), BigInt(n - s.at)];
}

async function take() {
  if (!humanTurn() || !S.sel) return;
  const i = S.sel.comp;
  const c = S.comps[i];
  let to;
  try {
    to = pendingTo();
  } catch (e) {
    $('move-error').textContent = e.message;
    return;
  }
  const why = illegal(c.game, c.nums, to);
  if (why) {
    $('move-error').textContent = T('err.illegal', {why});
    return;
  }
  // an emptied heap of a game that drops empty heaps: no numbers left
  const drop = dropsEmpty(c.game) && to.length === 1 && to[0] === 0n;
  const move = {component: apiIndex(S.comps, i), to: drop ? [] : to.map(String)};
  if (c.game.local) {
    play(move);
    return;
  }
  // a game the page does not check: the server reads the move
  const id = S.gameId;
  const at = S.history.length;
  let res;
  try {
    res = await checkOnServer(S.comps, applyMove(S.comps, move), S.misere);
  } catch (e) {
    if (id === S.gameId && at === S.history.length) {
      $('move-error').textContent = T('err.illegal', {why: e.message.replace(/^.*not a legal move of A: /, '')});
    }
    return;
  }
  if (id !== S.gameId || at !== S.history.length || !humanTurn()) return;
  play(move, res.text, res.over);
}

// Plays a move {component (the API's), to} for the player whose turn it
// is; its text names the heaps by their places on the board.
function play(move, serverText, over) {
  const i = pageIndex(S.comps, move.component);
  const c = S.comps[i];
  const to = move.to.map((x) => BigInt(x));
  const text = c.game.local ? describe(c.game, i, c.nums, to) : serverText;
  const comps = applyMove(S.comps, move);
  const n = c.game.arity ? Math.max(1, to.length / c.game.arity) : 1;
  const flash = S.vsComputer && S.turn === 'B' ? {i, n, before: c.nums.slice(), id: S.gameId} : null;
  S.flash = flash;
  // drawn once: a later redraw (a click) does not replay it
  if (flash) setTimeout(() => { if (S.flash === flash) S.flash = null; }, 2500);
  S.moveError = '';
  S.history.push({comps, mover: S.turn, text: notation(comps, S.spec !== 'sum'), moveText: text,
    move: {component: move.component, to: move.to.map(String)}});
  S.future = [];
  S.comps = comps;
  S.turn = S.turn === 'A' ? 'B' : 'A';
  S.sel = null;
  $('hint-box').hidden = true;
  $('move-error').textContent = '';
  checkOver(over);
  render();
  if (S.over) $('play-again').focus(); // the way on, for the keyboard too
  maybeComputer();
}

async function maybeComputer() {
  if (!S.vsComputer || S.over || S.turn !== 'B' || S.busy || S.moveError || S.checking) return;
  S.busy = true;
  render();
  // the reply belongs to this game at this move: a new game, an undo or
  // a jump meanwhile makes it stale, and it is dropped
  const id = S.gameId;
  const at = S.history.length;
  const ply = BigInt(at);
  let move;
  try {
    const [m] = await Promise.all([
      api('move', {position: apiPosition(S.comps), misere: S.misere, level: S.level,
        seed: String(S.seed + ply)}),
      new Promise((res) => setTimeout(res, 250)),
    ]);
    move = m;
  } catch (e) {
    if (id !== S.gameId || at !== S.history.length) return;
    S.busy = false;
    S.moveError = e.message;
    render();
    const retry = $('move-error').querySelector('.retry');
    if (retry) retry.focus();
    return;
  }
  if (id !== S.gameId || at !== S.history.length) return;
  S.busy = false;
  play(move, move.text);
  const last = S.history[S.history.length - 1];
  $('status').textContent = `${statusText()} ${T('status.played', {move: last.moveText})}`;
}

function undo() {
  if (S.busy || !canUndo()) return;
  S.gameId++;
  S.moveError = '';
  S.view = null;
  const popped = [];
  if (S.vsComputer) {
    while (S.history.length > 1 && S.history[S.history.length - 1].mover === 'B') popped.unshift(S.history.pop());
    if (S.history.length > 1) popped.unshift(S.history.pop());
  } else {
    popped.unshift(S.history.pop());
  }
  S.future.push(popped);
  S.comps = S.history[S.history.length - 1].comps;
  S.turn = nextMover();
  S.sel = null;
  $('hint-box').hidden = true;
  checkOver();
  render();
  maybeComputer();
}

// Plays again the moves the last undo took back.
function redo() {
  if (S.busy || S.future.length === 0 || S.view !== null) return;
  S.gameId++;
  S.moveError = '';
  S.history.push(...S.future.pop());
  S.comps = S.history[S.history.length - 1].comps;
  S.turn = nextMover();
  S.sel = null;
  $('hint-box').hidden = true;
  checkOver();
  render();
  maybeComputer();
}

// The same start again, the moves forgotten.
function restart() {
  if (!S.started) return;
  S.seed = BigInt(randInt(1, 2 ** 31 - 1));
  begin(S.history[0].comps, [], S.first);
}

// ---------------------------------------------------------- hints, panel

async function hint() {
  const box = $('hint-box');
  box.hidden = false;
  clear(box).append(h('p', {}, T('hint.thinking')));
  const key = analysisKey();
  const id = S.gameId;
  // after "Play this move" the focus goes back to the board
  const playIt = (m) => {
    play(m, m.text);
    const pile = $('piles').querySelector('svg.pile, svg.coins, input.bigpile');
    if (pile) pile.focus();
    else $('board').focus();
  };
  try {
    const res = boardNames(await api('analyze', {position: apiPosition(S.comps), misere: S.misere, explain: true}), S.comps);
    if (key !== analysisKey() || id !== S.gameId) return; // the position moved on
    // the winning moves of coin games are marked on the board
    S.hintMarks = {key, moves: res.winning_moves || []};
    const kids = [
      h('h3', {}, T('hint.heading')),
      outcomePanel(res, humanTurn() ? playIt : null, true),
      res.outcome === 'P'
        ? h('p', {}, T('hint.ploss'))
        : null,
      res.explanation ? h('details', {class: 'why'}, h('summary', {}, T('hint.why')), whyOf(res)) : null];
    clear(box).append(...kids.filter((k) => k !== null));
    box.querySelectorAll('.moves li').forEach((li, k) => {
      const m = (res.winning_moves || [])[k];
      const on = () => markHintMove(m);
      const off = () => markHintMove(null);
      li.addEventListener('mouseenter', on);
      li.addEventListener('mouseleave', off);
      li.addEventListener('focusin', on);
      li.addEventListener('focusout', off);
    });
    if (S.comps.some((c) => isCoinGame(c.game))) render();
    const first = box.querySelector('button');
    if (first) first.focus();
  } catch (e) {
    if (key !== analysisKey() || id !== S.gameId) return;
    clear(box).append(h('p', {class: 'error'}, T('hint.none', {why: e.message})));
  }
}

// The hint's "Why": the server's explanation; for a misère position
// answered by a misère quotient, first the quotient's reasoning drawn
// (each heap's element, their product, P), the text folded below it.
function whyOf(res) {
  const text = mark(h('pre', {class: 'explain'}, res.explanation));
  if (!res.quotient) return text;
  return [quotientPanel(res), h('details', {}, h('summary', {}, T('q.full')), text)];
}

// The winning moves of an analysis named by the heaps' places on the
// board (the server counts the heaps still there).
function boardNames(res, comps) {
  for (const m of res.winning_moves || []) {
    const i = pageIndex(comps, m.component);
    const c = comps[i];
    if (c && c.game.local) m.text = describe(c.game, i, c.nums, m.to.map((x) => BigInt(x)));
  }
  return res;
}

// ------------------------------------------------------ move values

// The values of every move of the position to move (POST /v1/moves).
async function loadValues() {
  const box = $('values-box');
  box.hidden = false;
  if (!S.started || S.over || S.view !== null) {
    clear(box);
    box.hidden = true;
    return;
  }
  if (S.vsComputer && S.turn === 'B') {
    clear(box).append(h('p', {class: 'note'}, T('values.yourturn')));
    return;
  }
  const key = analysisKey();
  if (S.values && S.values.key === key) {
    if (S.values.list && !box.querySelector('.value-list')) drawValues();
    return;
  }
  S.values = {key, map: null};
  clear(box).append(h('p', {class: 'busy'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), ' ', T('values.busy')));
  let res;
  try {
    res = await api('moves', {position: apiPosition(S.comps), misere: S.misere});
  } catch (e) {
    if (!S.values || S.values.key !== key) return;
    S.values.error = e.message;
    clear(box).append(h('p', {class: 'note'}, e instanceof ApiError && e.code === 'ELIMIT'
      ? T('values.limit')
      : T('values.none', {why: e.message})));
    return;
  }
  if (!S.values || S.values.key !== key || analysisKey() !== key) return;
  const map = new Map();
  for (const m of res.moves) map.set(`${m.component}:${m.to.join(',')}`, m);
  S.values.map = map;
  S.values.list = res.moves;
  drawValues();
  render();
}

// The order of the list: the winning moves first, the quickest win
// first; then the losing moves, the longest resistance first; moves of
// unknown value last.
function valueRank(m) {
  const r = remotenessOf(m.remoteness);
  if (m.outcome === 'P') return [0, r === null ? Infinity : Number(r)];
  if (m.outcome === 'N') return [1, r === null ? Infinity : -Number(r)];
  return [2, 0];
}

const VALUES_SHOWN = () => 8; // the list's length before "Show all"

function drawValues() {
  const box = clear($('values-box'));
  const list = S.values.list.slice().sort((x, y) => {
    const a = valueRank(x);
    const b = valueRank(y);
    return a[0] - b[0] || (a[1] === b[1] ? 0 : a[1] < b[1] ? -1 : 1);
  });
  const wins = list.filter((m) => m.outcome === 'P').length;
  box.append(h('p', {class: 'values-head'}, h('strong', {}, T('values.head')),
    list.length === 0 ? T('values.nomove')
      : T('values.count', {wins, n: list.length})),
  list.length === 0 ? null : h('p', {class: 'note'},
    T('values.legend')));
  const all = S.values.all || list.length <= VALUES_SHOWN() + 2;
  const shown = all ? list : list.slice(0, VALUES_SHOWN());
  box.append(h('ul', {class: 'value-list'}, shown.map((m) => {
    const i = pageIndex(S.comps, m.component);
    const c = S.comps[i];
    const text = c && c.game.local ? describe(c.game, i, c.nums, m.to.map((x) => BigInt(x))) : m.text;
    const cls = m.outcome === 'P' ? 'v-win' : m.outcome === 'N' ? 'v-lose' : 'v-unknown';
    // on a coin board the coins a move turns are outlined while it is
    // under the pointer or the focus
    const on = c && isCoinGame(c.game) ? () => markHintMove(m) : null;
    const off = on ? () => markHintMove(null) : null;
    return h('li', {class: cls, onmouseenter: on, onmouseleave: off, onfocusin: on, onfocusout: off},
      h('button', {type: 'button', class: 'value-move', disabled: !humanTurn(), onclick: () => play(m, m.text)}, mark(h('span', {}, text))),
      ' ', h('span', {class: 'value-word'}, valueWords(m)),
      // misère heaps: the element of the quotient the move leaves
      m.element === undefined ? null : [' ', h('span', {class: 'value-element'}, T('q.leaves'), wordNode(m.element))]);
  })));
  if (!all) {
    box.append(h('button', {type: 'button', class: 'values-all', onclick: () => {
      S.values.all = true;
      drawValues();
    }}, T('values.all', {n: list.length})));
  }
  // why some moves say "in N" and others do not: the server counts the
  // moves to the end only while its time budget for the answer lasts
  const known = list.filter((m) => m.outcome && remotenessOf(m.remoteness) !== null).length;
  const bare = list.filter((m) => m.outcome && remotenessOf(m.remoteness) === null).length;
  if (bare > 0) {
    box.append(h('p', {class: 'note values-why'}, known > 0
      ? T('values.why.some', {bare, all: known + bare})
      : T('values.why.all')));
  }
}

let analyseToken = 0;

let analysedKey = '';

async function analyse(force) {
  const body = $('analysis-body');
  if (!force && S.started && analysisKey() === analysedKey) return;
  analysedKey = S.started ? analysisKey() : '';
  const token = ++analyseToken;
  if (!S.started) {
    clear(body).append(h('p', {}, T('analysis.first')));
    return;
  }
  const comps = copyComps(S.comps);
  const parts = [];
  try {
    const res = boardNames(await api('analyze', {position: apiPosition(comps), misere: S.misere, explain: true}), comps);
    parts.push(outcomePanel(res, null));
    const g = singleGame(comps);
    const misere = S.misere;
    if (g && g.family === 'nim') {
      parts.push(binaryPanel(comps.map((c) => c.nums[0]), comps.map((c, i) => T('comp.pile', {n: i + 1})), null, misere));
    } else if (g && g.family === 'wythoff' && comps.length === 1) {
      parts.push(await wythoffAround(g, S.misere, comps[0].nums));
    } else {
      parts.push(sumPanel(res));
    }
    if (res.explanation) parts.push(h('details', {}, h('summary', {}, T('explain.summary')), mark(h('pre', {class: 'explain'}, res.explanation))));
  } catch (e) {
    parts.push(h('p', {class: 'error'}, T('analysis.none', {why: e.message})));
  }
  if (token === analyseToken) clear(body).append(...parts);
}

// -------------------------------------------------------------- history

// Who wins a position of the history, from the server (cached): the
// player to move wins in an N-position.
async function positionValue(entry) {
  const key = `${S.misere} ${entry.text}`;
  if (valueCache.has(key)) return valueCache.get(key);
  let v;
  try {
    const res = await api('analyze', {position: apiPosition(entry.comps), misere: S.misere});
    v = {outcome: res.outcome, remoteness: remotenessOf(res.remoteness)};
  } catch (e) {
    v = {outcome: null, remoteness: null};
  }
  valueCache.set(key, v);
  return v;
}

function moverAt(k) {
  const e = S.history[k];
  const next = k + 1 < S.history.length ? S.history[k + 1].mover : null;
  if (next) return next;
  if (!e.mover) return S.first;
  return e.mover === 'A' ? 'B' : 'A';
}

let historyDrawn = '';

function drawHistory() {
  const sec = $('history-section');
  sec.hidden = !S.started;
  if (!S.started) return;
  const sig = `${S.gameId} ${S.history.length} ${S.view} ${S.busy} ${S.over}`;
  if (sig === historyDrawn) return;
  historyDrawn = sig;
  const list = clear($('history'));
  const current = S.view === null ? S.history.length - 1 : S.view;
  S.history.forEach((e, k) => {
    const label = k === 0 ? T('history.start', {pos: e.text})
      : [`${S.names[e.mover]}: `, mark(h('span', {}, e.moveText)), ` \u2192 ${e.text}`];
    // the number is part of the button, so that a wrapped entry keeps it
    // on its first line (a list marker sits on the button's last line)
    list.append(h('li', {class: k === current ? 'current' : null},
      h('button', {type: 'button', class: 'history-item', 'data-k': k, 'aria-current': S.view === k ? 'step' : null,
        onclick: () => viewAt(k)}, h('span', {class: 'move-num'}, k === 0 ? '' : `${k}.`), h('span', {class: 'move-words'}, label))));
  });
  scrollList();
  drawChart();
}

// The latest move (or the one viewed) in view inside the move list's own
// scroll box, without scrolling the page.
function scrollList() {
  const list = $('history');
  const cur = list.children[S.view === null ? S.history.length - 1 : S.view];
  if (!cur) return;
  const top = cur.offsetTop; // the list is the offset parent (position: relative)
  if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top + cur.offsetHeight - list.clientHeight);
  }
}

// The value history (as GamesmanUni's "visual value history"): one dot a
// position, above the zero line while player A (you) is winning, below
// while B is; further from the line the closer the win (fewer moves to
// the end), on the line when unknown.  Axis labels, move numbers along the
// bottom, the viewed position ringed, a legend under it; scrolled to the
// latest move, with a cue when earlier moves are out of view.
async function drawChart() {
  const id = S.gameId;
  const n = S.history.length;
  const view = S.view;
  const entries = S.history.slice(Math.max(0, n - 200));
  const vals = [];
  for (const e of entries) {
    vals.push(await positionValue(e));
    if (id !== S.gameId || n !== S.history.length || view !== S.view) return;
  }
  const box = $('chart');
  const room = Math.max(200, box.clientWidth || 600);
  const L = 10; // left and right margins
  const H = 120;
  const top = 6;
  const bottom = H - 22; // over the move numbers
  const mid = (top + bottom) / 2;
  // 24 px a move where they fit, down to 14 px; past that the chart scrolls
  const step = vals.length > 1 ? Math.max(14, Math.min(24, (room - 2 * L) / (vals.length - 1))) : 0;
  const W = Math.max(room, Math.ceil(2 * L + step * (vals.length - 1)));
  const maxR = vals.reduce((m, v) => (v.remoteness !== null && v.remoteness > m ? v.remoteness : m), 1n);
  const half = mid - top - 6;
  const pts = vals.map((v, k) => {
    const idx = n - entries.length + k;
    const mover = moverAt(idx);
    let side = 0;
    if (v.outcome) side = (v.outcome === 'N') === (mover === 'A') ? 1 : -1;
    const r = v.remoteness === null ? maxR : v.remoteness;
    const dist = side === 0 ? 0 : 8 + (half - 8) * Number(maxR - r + 1n) / Number(maxR + 1n);
    return {x: L + k * step, y: mid - side * dist, side, v, idx, mover};
  });
  const svg = h('svg:svg', {class: 'value-chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img',
    'aria-label': T('chart.label', {list: pts.map((p) => (p.side > 0 ? 'A' : p.side < 0 ? 'B' : '?')).join(' ')})});
  svg.append(h('svg:line', {x1: 0, y1: mid, x2: W, y2: mid, class: 'axis zero'}),
    h('svg:line', {x1: 0, y1: H - 17, x2: W, y2: H - 17, class: 'axis'}));
  // the move numbers along the bottom: every move where there is room,
  // else every 5th
  const every = step >= 22 ? 1 : 5;
  for (const p of pts) {
    if (p.idx % every === 0) {
      svg.append(h('svg:text', {x: p.x, y: H - 4, class: 'chart-label tick'}, String(p.idx)));
    }
  }
  const viewed = view === null ? n - 1 : view;
  const vp = pts.find((p) => p.idx === viewed);
  if (vp && view !== null) {
    svg.append(h('svg:line', {x1: vp.x, y1: top - 4, x2: vp.x, y2: H - 17, class: 'viewed-line'}));
  }
  svg.append(h('svg:polyline', {points: pts.map((p) => `${p.x},${p.y}`).join(' '), class: 'trend'}));
  for (const p of pts) {
    const who = p.side > 0 ? S.names.A : p.side < 0 ? S.names.B : null;
    const r = p.v.remoteness;
    const title = `${p.idx === 0 ? T('chart.start') : T('chart.after', {k: p.idx})}: ` +
      (who ? T('chart.winning', {name: who}) + (r !== null ? T('chart.towin', {r}) : '') : T('value.unknown'));
    const dot = h('svg:circle', {cx: p.x, cy: p.y, r: 5, class: 'dot ' + (p.side > 0 ? 'a' : p.side < 0 ? 'b' : 'u') +
      (p.idx === viewed ? ' viewed' : ''), 'data-k': p.idx, 'data-side': p.side});
    dot.append(h('svg:title', {}, title));
    dot.addEventListener('click', () => viewAt(p.idx));
    svg.append(dot);
  }
  const scroller = h('div', {class: 'chart-scroll', tabindex: 0, role: 'region', 'aria-label': T('chart.region')}, svg);
  const cue = h('p', {class: 'scroll-cue chart-cue', hidden: true}, T('chart.cue'));
  const legend = h('p', {class: 'chart-legend'},
    h('span', {class: 'key a'}, ''), ` ${T('chart.winning', {name: S.names.A})} `,
    h('span', {class: 'key b'}, ''), ` ${T('chart.winning', {name: S.names.B})} `,
    h('span', {class: 'key u'}, ''), ` ${T('chart.unknown')} `,
    T('chart.legend'), ' ', T('chart.legend.alt'));
  // the sides of the axis named outside the drawing, so that they stay in
  // view while it scrolls
  clear(box).append(cue, h('p', {class: 'chart-side'}, `\u25b2 ${T('chart.winning', {name: S.names.A})}`), scroller,
    h('p', {class: 'chart-side'}, `\u25bc ${T('chart.winning', {name: S.names.B})}`), legend);
  const update = () => {
    const more = scroller.scrollWidth > scroller.clientWidth + 1;
    cue.hidden = !more;
    scroller.classList.toggle('more-left', more && scroller.scrollLeft > 1);
  };
  // the latest move (or the viewed one) in view
  const x = vp ? vp.x : W;
  scroller.scrollLeft = Math.max(0, x - scroller.clientWidth + 3 * L);
  scroller.addEventListener('scroll', update);
  update();
  drawVerdicts(entries, vals, n);
  drawAlternatives(svg, pts, entries, (side, r) => {
    const rr = r === null || r > maxR ? maxR : r;
    const dist = side === 0 ? 0 : 8 + (half - 8) * Number(maxR - rr + 1n) / Number(maxR + 1n);
    return mid - side * dist;
  });
}

// The moves not played, shown faintly as GamesmanUni's value history
// does: beside the dot of each move, one faint dot for every other value
// the mover could have reached from the position before (the values of
// every move, POST /v1/moves, cached by position).  Drawn after the chart,
// the latest move first; a chart drawn again stops them.
const altCache = new Map(); // position key -> [{outcome, remoteness}] distinct

async function drawAlternatives(svg, pts, entries, yOf) {
  const trend = svg.querySelector('.trend');
  for (let k = pts.length - 1; k >= 1; k--) {
    const p = pts[k];
    const before = entries[k - 1];
    const key = `${S.misere} ${before.text}`;
    if (!altCache.has(key)) {
      let list = [];
      try {
        const res = await api('moves', {position: apiPosition(before.comps), misere: S.misere});
        const seen = new Set();
        for (const m of res.moves) {
          const v = {outcome: m.outcome || null, remoteness: remotenessOf(m.remoteness)};
          const id = `${v.outcome} ${v.remoteness}`;
          if (!seen.has(id)) list.push(v);
          seen.add(id);
        }
      } catch (e) {
        list = []; // too many moves to value: no faint dots here
      }
      altCache.set(key, list);
    }
    if (!svg.isConnected) return; // the chart was drawn again
    for (const v of altCache.get(key)) {
      // the position after any move has the same player to move as p's
      const side = !v.outcome ? 0 : (v.outcome === 'N') === (p.mover === 'A') ? 1 : -1;
      const who = side > 0 ? S.names.A : side < 0 ? S.names.B : null;
      const dot = h('svg:circle', {cx: p.x, cy: yOf(side, v.remoteness), r: 3.5,
        class: 'alt ' + (side > 0 ? 'a' : side < 0 ? 'b' : 'u'), 'data-k': p.idx, 'data-side': side});
      dot.append(h('svg:title', {}, T('chart.alt', {k: p.idx}) + ': ' +
        (who ? T('chart.winning', {name: who}) + (v.remoteness !== null ? T('chart.towin', {r: v.remoteness}) : '') : T('value.unknown'))));
      svg.insertBefore(dot, trend);
    }
  }
}

// What each move did, as `bouton replay` says it: from a winning position
// (N for the mover) a move to a P-position kept the win, to an N-position
// threw it away; from a losing one no move wins.  "Best" is the quickest
// win or the longest defence: the remoteness falls by exactly one.
function verdictOf(before, after) {
  if (!before || !after || !before.outcome || !after.outcome) return null;
  const best = before.remoteness !== null && after.remoteness !== null &&
    after.remoteness + 1n === before.remoteness;
  if (before.outcome === 'N') {
    if (after.outcome === 'N') return {key: 'threw', words: T('verdict.threw')};
    return best ? {key: 'best', words: T('verdict.bestwin')} : {key: 'kept', words: T('verdict.kept')};
  }
  return best ? {key: 'best', words: T('verdict.bestdef')} : {key: 'lost', words: T('verdict.lost')};
}

const VERDICTS = [['best', 'verdict.best'], ['kept', 'verdict.kept'], ['threw', 'verdict.threw'], ['lost', 'verdict.lost']];

// Each move's verdict on its entry in the move list, and at the end of
// the game a scorecard: each player's moves by verdict.
function drawVerdicts(entries, vals, n) {
  const off = n - entries.length;
  const count = {A: {}, B: {}};
  for (let k = 1; k < entries.length; k++) {
    const v = verdictOf(vals[k - 1], vals[k]);
    const li = $('history').children[off + k];
    if (!v) continue;
    const who = entries[k].mover;
    count[who][v.key] = (count[who][v.key] || 0) + 1;
    if (li && !li.querySelector('.verdict-tag')) {
      li.querySelector('.move-words').append(' ', h('span', {class: `verdict-tag ${v.key}`}, v.words));
    }
  }
  scrollList(); // the verdicts made the entries taller
  const card = $('scorecard');
  if (!S.over) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  clear(card).append(h('table', {class: 'scorecard'},
    h('caption', {}, T('score.caption')),
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, ''), VERDICTS.map(([, w]) => h('th', {scope: 'col'}, T(w))))),
    h('tbody', {}, ['A', 'B'].map((p) => h('tr', {'data-player': p}, h('th', {scope: 'row'}, S.names[p]),
      VERDICTS.map(([key]) => h('td', {class: 'num', 'data-verdict': key}, String(count[p][key] || 0))))))));
}

// Shows position k of the history (the last one: back to the game).
function viewAt(k) {
  S.view = k === S.history.length - 1 ? null : k;
  S.sel = null;
  $('hint-box').hidden = true;
  render();
}

// Undoes to the viewed position and plays on from it.
function continueHere() {
  if (S.view === null || S.busy) return;
  S.gameId++;
  S.history = S.history.slice(0, S.view + 1);
  S.future = [];
  S.view = null;
  S.moveError = '';
  S.comps = S.history[S.history.length - 1].comps;
  S.turn = nextMover();
  S.sel = null;
  checkOver();
  render();
  maybeComputer();
}

// --------------------------------------------------------------- records

function currentRecord() {
  return recordText({
    game: S.spec,
    misere: S.misere,
    first: S.first,
    names: S.names,
    level: S.vsComputer ? S.level : undefined,
    seed: S.vsComputer ? String(S.seed) : undefined,
    history: S.history,
    winner: S.over ? S.winner : '',
  });
}

function download() {
  const blob = new Blob([currentRecord()], {type: 'text/plain'});
  const url = URL.createObjectURL(blob);
  const a = h('a', {href: url, download: 'bouton-game.txt'});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Loads a pasted record: the server reads it (the same code as `bouton
// play --load`), checking every move by the rules.
async function loadRecord() {
  const err = $('load-error');
  err.textContent = '';
  let rec;
  try {
    rec = await api('record', {record: $('paste-text').value});
  } catch (e) {
    err.textContent = e.message;
    return;
  }
  await beginRecord(rec);
  $('status').textContent = `${statusText()} ${T('status.loaded', {n: rec.moves.length})}`;
}

// Starts the game of a record the server has read (POST /v1/record), with
// the players of the form.  The moves are applied by the page, so that an
// emptied heap keeps its place as it does in play.
async function beginRecord(rec) {
  let comps = compsFromParse(rec.positions[0]);
  await loadRules(rec.positions.flatMap((p) => compsFromParse(p).map((c) => c.game.spec)));
  comps = compsFromParse(rec.positions[0]);
  S.spec = rec.game;
  S.misere = rec.misere;
  S.vsComputer = $('mode-computer').checked;
  S.level = S.vsComputer ? $('level').value : rec.level || 'perfect';
  S.names = S.vsComputer
    ? {A: T('name.you'), B: T('name.computer.level', {level: T('level.' + S.level)})}
    : {A: rec.names.A || T('name.playerA'), B: rec.names.B || T('name.playerB')};
  S.seed = rec.seed && /^\d+$/.test(rec.seed) ? BigInt(rec.seed) : BigInt(randInt(1, 2 ** 31 - 1));
  const later = [];
  let at = comps;
  for (const m of rec.moves) {
    const i = pageIndex(at, m.component);
    const c = at[i];
    const to = m.to.map((x) => BigInt(x));
    const next = applyMove(at, m);
    later.push({comps: next, mover: m.player, text: notation(next, S.spec !== 'sum'),
      moveText: c && c.game.local ? describe(c.game, i, c.nums, to) : m.text,
      move: {component: m.component, to: m.to.map(String)}});
    at = next;
  }
  setFormFrom(rec.game, rec.misere, comps);
  begin(comps, later, rec.first || 'A');
}

// ------------------------------------------------------ the address

// The game in the address (#g=kayles&p=40&moves=2-3.36_1-): the game, the
// start, the moves (each the API's component, '-', the numbers it leaves
// joined by '.'; '_' between moves), misère play (m=1), the opponent
// (vs=perfect, medium, easy, or two) and who began (first=computer).
// Reloading keeps the game, a link shares it, and the last game is kept
// in the browser's storage for the next visit.
const STORE = 'bouton.game';

function addressOf() {
  const q = new URLSearchParams();
  q.set('g', S.spec);
  const start = S.history[0].comps;
  q.set('p', S.spec === 'sum' ? positionText(start) : live(start).flatMap((c) => c.nums.map(String)).join(' '));
  const moves = S.history.slice(1).map((e) => (e.move ? `${e.move.component}-${e.move.to.join('.')}` : null));
  if (moves.length && moves.every((x) => x !== null)) q.set('moves', moves.join('_'));
  if (S.misere) q.set('m', '1');
  q.set('vs', S.vsComputer ? S.level : 'two');
  if (S.first === 'B') q.set('first', 'computer');
  return '#' + q.toString();
}

let addressShown = '';

function saveAddress() {
  if (!S.started) return;
  const hash = addressOf();
  if (hash === addressShown) return;
  addressShown = hash;
  history.replaceState(null, '', hash);
  try {
    localStorage.setItem(STORE, hash);
  } catch (e) {
    // storage refused (a private window): the address still holds it
  }
}

// Starts the game of an address; false (and the form as it was) when it
// holds none or the server does not read it.
async function restoreFrom(hash) {
  const q = new URLSearchParams(String(hash || '').replace(/^#/, ''));
  const spec = q.get('g');
  const start = q.get('p');
  if (!spec || start === null) return false;
  const misere = q.get('m') === '1';
  const vs = q.get('vs') || 'perfect';
  const first = vs !== 'two' && q.get('first') === 'computer' ? 'B' : 'A';
  try {
    const parsed = await api('parse', spec === 'sum' ? {position: start} : {game: spec, position: start});
    const comps = compsFromParse(parsed);
    if (comps.length === 0) return false;
    await loadRules(comps.map((c) => c.game.spec));
    // the positions after each move, for the server to check every move
    const texts = [`(${positionText(comps)})`];
    let at = comps;
    let who = first;
    const body = [];
    for (const m of (q.get('moves') || '').split('_').filter(Boolean)) {
      const mm = /^(\d+)-([\d.]*)$/.exec(m);
      if (!mm) throw new Error(`"${m}" is not a move`);
      at = applyMove(at, {component: Number(mm[1]), to: mm[2] ? mm[2].split('.') : []});
      body.push(`-${who}-> (${positionText(at)})`);
      who = who === 'A' ? 'B' : 'A';
    }
    const lines = [`rules: ${misere ? 'mis\u00e8re' : 'normal'}`, `first: ${first}`, '', texts[0], ...body];
    const rec = await api('record', {record: lines.join('\n') + '\n'});
    rec.game = spec;
    $(vs === 'two' ? 'mode-two' : 'mode-computer').checked = true;
    $('computer-row').hidden = vs === 'two';
    if (vs !== 'two' && ['perfect', 'medium', 'easy'].includes(vs)) $('level').value = vs;
    $('first').value = first === 'B' ? 'computer' : 'me';
    await beginRecord(rec);
    return true;
  } catch (e) {
    $('setup-error').textContent = T('err.address', {why: e.message});
    return false;
  }
}

// Sets the New game form to a game (a loaded record's), so that "Start
// the game" and "Play again" play it.
function setFormFrom(spec, misere, comps) {
  let kind = 'sum';
  let param = null;
  const f = spec === 'sum' ? null : familyOf(spec);
  if (f) {
    kind = f.name === 'nim' && misere ? 'misere-nim' : f.name;
    const colon = spec.indexOf(':');
    param = colon < 0 ? (f.name === spec || f.name === 'nim' ? '' : spec) : spec.slice(colon + 1);
  }
  $('game').value = kind;
  lastKind = kind;
  const p = paramOf(kind);
  $('param-row').hidden = !p;
  if (p) {
    $('param-label').textContent = p.label;
    $('param').value = param !== null ? param : p.value;
    $('param-help').textContent = p.help;
  }
  $('misere').checked = !!misere;
  $('start').value = kind === 'sum'
    ? positionText(comps)
    : comps.flatMap((c) => c.nums.map(String)).join(' ');
  S.startTyped = true;
}

// ------------------------------------------------------------------ wiring

async function init() {
  translatePage();
  themeSwitch($('theme'));
  textSizeSwitch($('text-size'));
  try {
    await loadGames();
  } catch (e) {
    $('setup-error').textContent = T('err.games', {why: e.message});
    return;
  }
  fillGameSelect();
  $('game').addEventListener('change', onGameChange);
  // a new parameter draws a new start, unless the start was typed
  $('param').addEventListener('change', () => {
    if (!S.startTyped) randomStart();
  });
  $('start').addEventListener('input', () => {
    S.startTyped = true;
  });
  $('random').addEventListener('click', randomStart);
  $('setup-form').addEventListener('submit', startGame);
  const syncMode = () => {
    $('computer-row').hidden = !$('mode-computer').checked;
  };
  $('mode-computer').addEventListener('change', syncMode);
  $('mode-two').addEventListener('change', syncMode);
  $('take').addEventListener('click', take);
  $('clear-sel').addEventListener('click', clearSel);
  $('hint').addEventListener('click', hint);
  $('undo').addEventListener('click', undo);
  $('download').addEventListener('click', download);
  $('load').addEventListener('click', loadRecord);
  $('play-again').addEventListener('click', restart);
  $('redo').addEventListener('click', redo);
  $('restart').addEventListener('click', restart);
  $('new-game').addEventListener('click', newGameForm);
  $('setup-open').addEventListener('click', newGameForm);
  $('queen-view').addEventListener('click', () => {
    S.queen = !S.queen;
    S.sel = null;
    render();
  });
  $('golden').addEventListener('click', () => {
    S.golden = !S.golden;
    render();
  });
  $('setup-close').addEventListener('click', () => {
    S.setupOpen = false;
    drawSetup();
    $('board').focus();
  });
  $('view-back').addEventListener('click', () => viewAt(S.history.length - 1));
  $('view-continue').addEventListener('click', continueHere);
  $('show-values').addEventListener('change', () => {
    S.showValues = $('show-values').checked;
    render();
  });
  let lastPhone = phone();
  window.addEventListener('resize', () => {
    if (phone() !== lastPhone) {
      lastPhone = phone();
      render();
    }
  });
  $('analysis').addEventListener('toggle', () => {
    if ($('analysis').open) analyse(true);
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (e.key === 'u' && !e.ctrlKey && !e.metaKey && !e.altKey) undo();
    if (e.key === 'r' && !e.ctrlKey && !e.metaKey && !e.altKey) redo();
    if (e.key === 'h' && !e.ctrlKey && !e.metaKey && !e.altKey && !$('hint').disabled) hint();
  });
  onGameChange();
  syncMode();
  render();
  // a link (or a reload) with a game in its address, else the last game
  let stored = null;
  try {
    stored = localStorage.getItem(STORE);
  } catch (e) {
    stored = null;
  }
  // the form waits meanwhile, so that a choice made at once is not
  // overwritten by the game restored
  $('game').disabled = true;
  $('start-game').disabled = true;
  try {
    if (!(await restoreFrom(location.hash)) && stored && !location.hash) await restoreFrom(stored);
  } finally {
    $('game').disabled = false;
    $('start-game').disabled = false;
  }
  window.addEventListener('hashchange', () => {
    if (location.hash !== addressShown) restoreFrom(location.hash);
  });
}

init();
