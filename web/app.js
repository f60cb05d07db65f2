// app.js -- the play page: choose a game, play it against the computer or
// a friend by clicking counters, with hints, undo, the analysis of each
// position and the game record.
import {
  h, clear, api, ApiError, parseGame, illegal, describe, compName,
  copyComps, apiPosition, singleGame, notation, compsFromParse, applyMove,
  isOver, recordText, binaryPanel,
  wythoffAround, sumPanel, outcomePanel, randInt,
} from './common.js';

const $ = (id) => document.getElementById(id);
const DRAW_MAX = 60n; // a bigger pile gets a number field instead of counters
const COLS = 15; // counters per line of a drawing
const D = 24; // distance between counters in the drawing

const S = {
  spec: 'nim', // the game of the setup form, or 'sum'
  misere: false,
  vsComputer: true,
  level: 'perfect',
  first: 'A',
  names: {A: 'You', B: 'Computer'},
  seed: 1n,
  comps: [],
  history: [], // [{comps, mover, text, moveText}]
  turn: 'A',
  over: false,
  result: '',
  sel: null, // {comp, rows: {r: selection}}
  busy: false,
  started: false,
  startTyped: false, // the start field holds what the player typed
};

// ---------------------------------------------------------------- setup

const PARAMS = {
  gwythoff: {label: 'a', value: '2', help: 'From both piles, k and l counters with |k \u2212 l| < a.'},
  sub: {label: 'Set S', value: '1-3', help: 'How many counters a move may take, e.g. 1-3 or 1,3,4.'},
  octal: {label: 'Code', value: '0.77', help: 'e.g. 0.77 (Kayles), 0.07 (Dawson\u2019s Kayles), 0.137 (Dawson\u2019s chess), or grundys-game.'},
};

function setupSpec() {
  const kind = $('game').value;
  const param = $('param').value.trim();
  switch (kind) {
    case 'nim':
    case 'misere-nim':
      return 'nim';
    case 'wythoff':
      return 'wythoff';
    case 'gwythoff':
      return 'wythoff:' + (param || '2');
    case 'sub':
      return 'sub:' + (param || '1-3');
    case 'octal':
      if (/^[a-z]/i.test(param)) return param;
      return 'octal:' + (param || '0.77');
    default:
      return 'sum';
  }
}

function onGameChange() {
  const kind = $('game').value;
  const p = PARAMS[kind];
  $('param-row').hidden = !p;
  if (p) {
    $('param-label').textContent = p.label;
    $('param').value = p.value;
    $('param-help').textContent = p.help;
  }
  if (kind === 'misere-nim') $('misere').checked = true;
  else if (kind === 'nim') $('misere').checked = false;
  $('start-help').textContent = kind === 'sum'
    ? 'In the position language, e.g. nim 3 4 5 + kayles 10 + wythoff 3 5 + sub:1-3 13.'
    : kind === 'wythoff' || kind === 'gwythoff'
      ? 'Two numbers: the two piles.'
      : 'Numbers separated by spaces; any size.';
  randomStart();
}

function randomStart() {
  S.startTyped = false;
  const kind = $('game').value;
  const r = (lo, hi) => randInt(lo, hi);
  let text;
  if (kind === 'nim' || kind === 'misere-nim') {
    const k = r(3, 4);
    text = Array.from({length: k}, () => r(1, 15)).join(' ');
  } else if (kind === 'wythoff' || kind === 'gwythoff') {
    text = `${r(2, 20)} ${r(2, 20)}`;
  } else if (kind === 'sub') {
    text = `${r(5, 25)} ${r(5, 25)} ${r(5, 25)}`;
  } else if (kind === 'octal') {
    text = `${r(4, 14)} ${r(4, 14)}`;
  } else if ($('misere').checked) {
    // misère sums are solved by searching the whole game: keep it small
    text = `nim ${r(1, 3)} ${r(1, 3)} + kayles ${r(2, 5)} + sub:1-3 ${r(2, 6)}`;
  } else {
    text = `nim ${r(1, 7)} ${r(1, 7)} + kayles ${r(3, 8)} + wythoff ${r(1, 6)} ${r(1, 6)} + sub:1-3 ${r(3, 12)}`;
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
    $('setup-error').textContent = 'The start has no pile.';
    return;
  }
  S.spec = spec;
  S.misere = $('misere').checked;
  S.vsComputer = $('mode-computer').checked;
  S.level = $('level').value;
  S.first = S.vsComputer && $('first').value === 'computer' ? 'B' : 'A';
  S.names = S.vsComputer ? {A: 'You', B: `Computer (${S.level})`} : {A: 'Player A', B: 'Player B'};
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

function checkOver() {
  if (!isOver(S.comps)) {
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
  S.result = `${S.names[winner]} ${S.vsComputer && winner === 'A' ? 'win' : 'wins'}` +
    (top.mover ? ` (${S.misere ? 'misère play: the last mover loses' : 'the last mover wins'})` : ' (no move is possible)');
}

const humanTurn = () => S.started && !S.over && !S.busy && (!S.vsComputer || S.turn === 'A');

// ------------------------------------------------------------- drawing

function rulesText() {
  const g = singleGame(S.comps);
  const end = S.misere
    ? 'Misère play: whoever makes the last move loses.'
    : 'Whoever makes the last move wins.';
  if (!g) return `A sum of games: each move is a move in one component of its own game. ${end}`;
  switch (g.family) {
    case 'nim':
      return `Nim: take any number of counters (at least one) from one pile. ${end}`;
    case 'wythoff':
      return g.a === 1n
        ? `Wythoff's game: take any number from one pile, or the same number from both piles. ${end}`
        : `Generalised Wythoff (a = ${g.a}): take any number from one pile, or k from one and l from the other with |k \u2212 l| < ${g.a}. ${end}`;
    case 'sub':
      return `Subtraction game: take ${g.set.join(', ')} counters from one heap. ${end}`;
    case 'octal': {
      const code = g.digits[0] + '.' + g.digits.slice(1).join('');
      return `${g.label} (octal ${code}): taking k counters is allowed as digit k says \u2014 1: the whole heap, 2: leaving one heap, 4: leaving two heaps (choose counters in the middle to split). ${end}`;
    }
    case 'grundy':
      return `Grundy's game: split one heap into two unequal heaps. ${end}`;
    default:
      return `${g.label}. ${end}`;
  }
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
  if (c.game.arity === 2) return `${compName(c.game, i)}, ${r === 0 ? 'first' : 'second'} pile`;
  return compName(c.game, i);
}

function selectionWords(i, r, n) {
  const s = S.sel && S.sel.comp === i ? S.sel.rows[r] : null;
  if (!s) return 'nothing chosen';
  if (s.kind === 'tail') return `take ${BigInt(n) - BigInt(s.from)}, leaving ${s.from}`;
  if (s.kind === 'range') return `take counters ${s.a + 1} to ${s.b + 1}`;
  if (s.kind === 'cut') return `split into ${s.at} and ${Number(n) - s.at}`;
  return 'a number typed';
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
    return h('div', {class: 'row-big'},
      h('label', {for: id}, `${label}: ${digits} digits, too many counters to draw; type what it becomes`),
      input,
      h('span', {id: id + '-help', class: 'help'},
        selMode(c.game) === 'tail' ? 'the new size, smaller than now' : 'the heaps left, separated by spaces'));
  }
  const count = Number(n);
  // counters big enough to tap: fewer to a line on a narrow screen
  const room = $('piles').clientWidth || 600;
  const cols = Math.max(5, Math.min(COLS, Math.floor((room - 8) / 30)));
  const lines = Math.max(1, Math.ceil(count / cols));
  const width = cols * D;
  const height = lines * D;
  const isChosen = chosen(i, r);
  const svg = h('svg:svg', {
    class: 'pile', viewBox: `0 0 ${width} ${height}`, width, height,
    tabindex: humanTurn() ? 0 : -1, role: 'slider',
    'aria-label': `${label}: ${count} counter${count === 1 ? '' : 's'}`,
    'aria-valuemin': 0, 'aria-valuemax': count,
    'aria-valuenow': count - (S.sel && S.sel.comp === i && S.sel.rows[r] && S.sel.rows[r].kind === 'tail' ? S.sel.rows[r].from : count),
    'aria-valuetext': selectionWords(i, r, n),
    'data-comp': i, 'data-row': r,
  });
  if (count === 0) {
    svg.append(h('svg:text', {x: 4, y: D * 0.7, class: 'empty'}, 'empty'));
  }
  for (let j = 0; j < count; j++) {
    const cx = (j % cols) * D + D / 2;
    const cy = Math.floor(j / cols) * D + D / 2;
    const circle = h('svg:circle', {
      cx, cy, r: D * 0.38, class: 'counter' + (isChosen(j) ? ' chosen' : ''),
      'data-j': j,
    });
    circle.append(h('svg:title', {}, `${label}, counter ${j + 1}`));
    svg.append(circle);
  }
  svg.addEventListener('click', (e) => {
    const t = e.target.closest('circle');
    if (t) pick(i, r, Number(t.getAttribute('data-j')));
  });
  svg.addEventListener('keydown', (e) => rowKey(e, i, r, count));
  return h('div', {class: 'row-drawn'}, h('span', {class: 'row-label'}, `${label}: ${count}`), svg);
}

function render() {
  $('rules').textContent = S.started ? rulesText() : '';
  const active = document.activeElement;
  const focused = active && active.getAttribute && $('piles').contains(active)
    ? [active.getAttribute('data-comp'), active.getAttribute('data-row')]
    : null;
  const box = clear($('piles'));
  S.comps.forEach((c, i) => {
    const rows = [];
    for (let r = 0; r < c.game.arity; r++) rows.push(drawRow(c, i, r));
    box.append(h('div', {class: 'comp' + (S.sel && S.sel.comp === i ? ' active' : ''), role: 'group',
      'aria-label': `${compName(c.game, i)} (${c.game.spec})`},
      S.spec === 'sum' ? h('span', {class: 'comp-game'}, c.game.spec) : null, rows));
  });
  if (focused && focused[0] !== null) {
    const again = box.querySelector(`[data-comp="${focused[0]}"][data-row="${focused[1]}"]`);
    if (again) again.focus();
  }
  $('status').textContent = statusText();
  updateButtons();
  $('record').textContent = S.started ? currentRecord() : '';
  if ($('analysis').open) analyse();
}

// The text of what the analysis panel shows, to redraw it only when the
// position changes (not on every click that chooses counters).
const analysisKey = () => `${S.misere} ${S.comps.length} ${S.comps.map((c) => c.game.spec + ':' + c.nums.join(',')).join(' ')}`;

function statusText() {
  if (!S.started) return 'Choose a game and start it.';
  if (S.over) return `Game over: ${S.result}.`;
  if (S.busy) return 'The computer is thinking\u2026';
  if (S.vsComputer) return S.turn === 'A' ? 'Your move.' : 'The computer\u2019s move.';
  return `${S.names[S.turn]} to move.`;
}

function updateButtons() {
  const canMove = humanTurn();
  $('take').disabled = !canMove || !S.sel;
  $('clear-sel').disabled = !S.sel;
  $('hint').disabled = !S.started || S.over || S.busy;
  $('undo').disabled = S.busy || !canUndo();
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
      $('move-error').textContent = 'Choose the first counter of the second heap (not the very first counter).';
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
  const mode = selMode(c.game);
  const parseList = (text) => {
    const parts = text.trim().split(/[\s,]+/).filter((x) => x !== '');
    if (!parts.every((x) => /^\d+$/.test(x))) throw new Error('type non-negative whole numbers only');
    return parts.map((x) => BigInt(x));
  };
  if (mode === 'tail') {
    const to = [];
    for (let r = 0; r < c.game.arity; r++) {
      const s = S.sel.rows[r];
      if (!s) to.push(c.nums[r]);
      else if (s.kind === 'tail') to.push(BigInt(s.from));
      else {
        const v = parseList(s.text);
        if (v.length !== 1) throw new Error('type one number: what the pile becomes');
        to.push(v[0]);
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

function take() {
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
    $('move-error').textContent = `Not a legal move: ${why}.`;
    return;
  }
  play({component: i + 1, to: to.map(String)}, describe(c.game, i, c.nums, to));
}

// Plays a move for the player whose turn it is.
function play(move, text) {
  const comps = applyMove(S.comps, move);
  S.history.push({comps, mover: S.turn, text: notation(comps, S.spec !== 'sum'), moveText: text});
  S.comps = comps;
  S.turn = S.turn === 'A' ? 'B' : 'A';
  S.sel = null;
  $('hint-box').hidden = true;
  $('move-error').textContent = '';
  checkOver();
  render();
  maybeComputer();
}

async function maybeComputer() {
  if (!S.vsComputer || S.over || S.turn !== 'B' || S.busy) return;
  S.busy = true;
  render();
  const ply = BigInt(S.history.length);
  let move;
  try {
    const [m] = await Promise.all([
      api('move', {position: apiPosition(S.comps), misere: S.misere, level: S.level,
        seed: String(S.seed + ply)}),
      new Promise((res) => setTimeout(res, 250)),
    ]);
    move = m;
  } catch (e) {
    S.busy = false;
    render();
    $('move-error').textContent = `The computer cannot move: ${e.message}`;
    return;
  }
  S.busy = false;
  play(move, move.text);
  const last = S.history[S.history.length - 1];
  $('status').textContent = `${statusText()} The computer played: ${last.moveText}.`;
}

function undo() {
  if (S.busy || !canUndo()) return;
  if (S.vsComputer) {
    while (S.history.length > 1 && S.history[S.history.length - 1].mover === 'B') S.history.pop();
    if (S.history.length > 1) S.history.pop();
  } else {
    S.history.pop();
  }
  S.comps = S.history[S.history.length - 1].comps;
  S.turn = nextMover();
  S.sel = null;
  $('hint-box').hidden = true;
  checkOver();
  render();
  maybeComputer();
}

// ---------------------------------------------------------- hints, panel

async function hint() {
  const box = $('hint-box');
  box.hidden = false;
  clear(box).append(h('p', {}, 'Thinking\u2026'));
  try {
    const res = await api('analyze', {position: apiPosition(S.comps), misere: S.misere, explain: true});
    clear(box).append(
      h('h3', {}, 'Hint'),
      outcomePanel(res, humanTurn() ? (m) => play(m, m.text) : null),
      res.outcome === 'P'
        ? h('p', {}, 'Every move leaves a winning position for the other side; against a fallible opponent, make the game long and hard.')
        : null,
      res.explanation ? h('details', {}, h('summary', {}, 'Why'), h('pre', {class: 'explain'}, res.explanation)) : null);
    const first = box.querySelector('button');
    if (first) first.focus();
  } catch (e) {
    clear(box).append(h('p', {class: 'error'}, `No hint: ${e.message}`));
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
    clear(body).append(h('p', {}, 'Start a game first.'));
    return;
  }
  const comps = copyComps(S.comps);
  const parts = [];
  try {
    const res = await api('analyze', {position: apiPosition(comps), misere: S.misere, explain: true});
    parts.push(outcomePanel(res, null));
    const g = singleGame(comps);
    const misere = S.misere;
    if (g && g.family === 'nim') {
      parts.push(binaryPanel(comps.map((c) => c.nums[0]), comps.map((c, i) => `pile ${i + 1}`), null, misere));
    } else if (g && g.family === 'wythoff' && comps.length === 1) {
      parts.push(await wythoffAround(g, S.misere, comps[0].nums));
    } else {
      parts.push(sumPanel(res));
    }
    if (res.explanation) parts.push(h('details', {}, h('summary', {}, 'The explanation'), h('pre', {class: 'explain'}, res.explanation)));
  } catch (e) {
    parts.push(h('p', {class: 'error'}, `No analysis: ${e.message}`));
  }
  if (token === analyseToken) clear(body).append(...parts);
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
  const positions = rec.positions.map((p) => compsFromParse(p));
  S.spec = rec.game;
  S.misere = rec.misere;
  S.vsComputer = $('mode-computer').checked;
  S.level = S.vsComputer ? $('level').value : rec.level || 'perfect';
  S.names = S.vsComputer
    ? {A: 'You', B: `Computer (${S.level})`}
    : {A: rec.names.A || 'Player A', B: rec.names.B || 'Player B'};
  S.seed = rec.seed && /^\d+$/.test(rec.seed) ? BigInt(rec.seed) : BigInt(randInt(1, 2 ** 31 - 1));
  const later = positions.slice(1).map((comps, k) => ({
    comps, mover: rec.moves[k].player, text: notation(comps, S.spec !== 'sum'), moveText: rec.moves[k].text,
  }));
  begin(positions[0], later, rec.first || 'A');
  $('status').textContent = `${statusText()} Loaded ${rec.moves.length} move${rec.moves.length === 1 ? '' : 's'}.`;
}

// ------------------------------------------------------------------ wiring

function init() {
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
  $('analysis').addEventListener('toggle', () => {
    if ($('analysis').open) analyse(true);
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (e.key === 'u' && !e.ctrlKey && !e.metaKey && !e.altKey) undo();
    if (e.key === 'h' && !e.ctrlKey && !e.metaKey && !e.altKey && !$('hint').disabled) hint();
  });
  onGameChange();
  syncMode();
  render();
}

init();
