// analyze.js -- the analysis page: a position in, its outcome, every
// winning move, the explanation, the seeds' panel and the safe
// combinations around it.
import {
  h, clear, api, ApiError, singleGame, compsFromParse, binaryPanel,
  wythoffAround, sumPanel, outcomePanel, scrollBox, loadGames,
  themeSwitch, textSizeSwitch,
} from './common.js';
import {t as T, translatePage, mark} from './messages.js';

const $ = (id) => document.getElementById(id);
const TABLE_REACH = 1n << 16n; // beyond, walking the table to the position takes too long
// A game of variable arity (one component of several piles): its table
// walks every combination of the piles but the last, so it is shown for a
// few small piles only.
const VAR_REACH = 64n;
const VAR_PILES = 5;

let tableState = null; // {req, next, rows, sorted, shown}
let token = 0;

async function analyse(ev) {
  if (ev) ev.preventDefault();
  const text = $('position').value.trim();
  const misere = $('misere').checked;
  const my = ++token;
  $('ask-error').textContent = '';
  if (!text) {
    // an empty position is no question: the server would read it as Nim
    // with no pile and call it lost
    $('result').hidden = true;
    $('table-section').hidden = true;
    tableState = null;
    $('ask-error').textContent = T('ask.empty');
    $('position').focus();
    return;
  }
  // the previous answer goes at once: never shown under a new question
  $('result').hidden = true;
  $('table-section').hidden = true;
  tableState = null;
  setBusy(true);
  const params = new URLSearchParams({p: text});
  if (misere) params.set('misere', '1');
  history.replaceState(null, '', '?' + params.toString());
  let parsed;
  let res;
  try {
    parsed = await api('parse', {position: text});
    res = await api('analyze', {position: text, misere, explain: true});
  } catch (e) {
    if (my !== token) return;
    setBusy(false);
    $('ask-error').textContent = e.message;
    if (e instanceof ApiError && e.column) {
      const at = Math.max(0, e.column - 1);
      $('position').focus();
      $('position').setSelectionRange(at, Math.min(text.length, at + 1));
    }
    return;
  }
  if (my !== token) return;
  setBusy(false);
  const comps = compsFromParse(parsed);
  $('result').hidden = false;
  clear($('outcome')).append(
    h('p', {class: 'position-text'}, T('ask.position.is'), h('code', {}, parsed.position || T('ask.emptypos')),
      T(misere ? 'ask.misere.play' : 'ask.normal.play')),
    outcomePanel(res, null));
  const panel = clear($('panel'));
  const g = singleGame(comps);
  try {
    if (g && g.family === 'nim') {
      panel.append(binaryPanel(comps.map((c) => c.nums[0]), comps.map((c, i) => T('comp.pile', {n: i + 1})), null, misere));
    } else if (g && g.family === 'wythoff' && comps.length === 1) {
      panel.append(await wythoffAround(g, misere, comps[0].nums));
    } else {
      panel.append(sumPanel(res));
    }
  } catch (e) {
    panel.append(h('p', {class: 'error'}, T('ask.nopanel', {why: e.message})));
  }
  if (my !== token) return;
  $('explain').textContent = res.explanation || T('ask.none');
  mark($('explain'));
  await safeTable(g, comps, misere, res.outcome === 'P');
}

// While a question is asked: a busy line, the button disabled.
function setBusy(on) {
  $('go').disabled = on;
  $('busy').hidden = !on;
  $('ask').setAttribute('aria-busy', on ? 'true' : 'false');
}

// The safe combinations (P-positions) of as many heaps of the same game
// (or of one component of as many piles, for a game of variable arity),
// starting a little before the position in the table's order.
async function safeTable(g, comps, misere, isP) {
  const sec = $('table-section');
  const body = clear($('table-body'));
  $('more').hidden = true;
  tableState = null;
  const variable = g && g.arity === 0 && comps.length === 1;
  if (!g || (g.arity !== 1 && !variable) || comps.length === 0) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  const nums = variable ? comps[0].nums : comps.map((c) => c.nums[0]);
  const sorted = nums.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const max = sorted[sorted.length - 1];
  if (variable && (max >= VAR_REACH || sorted.length > VAR_PILES)) {
    body.append(h('p', {class: 'note'}, T('table.var', {game: g.spec, piles: VAR_PILES, reach: VAR_REACH})));
    return;
  }
  if (max >= TABLE_REACH) {
    body.append(h('p', {class: 'note'}, T('table.toobig')));
    return;
  }
  let below = 16n;
  while (below <= max) below *= 2n;
  const k = sorted.length;
  let cursor = null;
  if (k === 1) {
    cursor = sorted[0] > 6n ? String(sorted[0] - 6n) : null;
  } else {
    const prefix = sorted.slice(0, k - 1);
    if (prefix[k - 2] > 0n) prefix[k - 2] -= 1n;
    cursor = prefix.map(String).join(',');
  }
  const req = {game: g.spec, misere, piles: k, below: String(below), limit: 12};
  if (cursor !== null) req.cursor = cursor;
  const word = T(g.family === 'nim' || variable ? 'word.pile' : 'word.heap');
  tableState = {req, next: null, rows: [], sorted, isP, k, below, word};
  body.append(h('p', {class: 'note'},
    T('table.count', {k, word, variable, game: g.spec, below})));
  await morePage();
}

async function morePage() {
  const st = tableState;
  if (!st) return;
  let res;
  try {
    res = await api('table', st.next ? {...st.req, cursor: st.next} : st.req);
  } catch (e) {
    $('table-body').append(h('p', {class: 'error'}, T('ask.notable', {why: e.message})));
    return;
  }
  if (st !== tableState) return;
  st.rows.push(...res.rows.map((r) => r.map((v) => BigInt(v))));
  st.next = res.next;
  drawTable();
  $('more').hidden = !res.next;
}

function cmpRows(a, b) {
  for (let i = 0; i < a.length && i < b.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

function drawTable() {
  const st = tableState;
  const body = $('table-body');
  const old = body.querySelector('.scroll-wrap');
  if (old) old.remove();
  const trs = [];
  let placed = false;
  const mark = () => h('tr', {class: 'here'}, h('td', {colspan: st.k + 1}, T('table.falls', {pos: st.sorted.join(', ')})));
  for (const r of st.rows) {
    const c = cmpRows(r, st.sorted);
    if (!placed && !st.isP && c > 0) {
      trs.push(mark());
      placed = true;
    }
    const here = c === 0;
    if (here) placed = true;
    trs.push(h('tr', {class: here ? 'here' : null}, r.map((v) => h('td', {class: 'num'}, String(v))),
      h('td', {}, here ? T('table.yours') : '')));
  }
  const table = h('table', {class: 'pairs safe'},
    h('caption', {}, T('table.caption')),
    h('thead', {}, h('tr', {}, Array.from({length: st.k}, (_, i) => h('th', {scope: 'col'}, `${st.word} ${i + 1}`)), h('th', {}, ''))),
    h('tbody', {}, trs));
  body.append(scrollBox(T('table.caption'), table));
}

// The games one may name, from the server's registry: each family's
// example and its named games, with a few numbers.
function gameExamples(games) {
  // a game of variable arity: four distinct numbers (coin games list
  // distinct heads, a board's heads in pairs)
  const nums = (f, k) => Array.from({length: f.arity || 4}, (_, i) => String(k + 2 * i));
  const codes = [];
  for (const f of games) {
    if (f.name === 'nim') continue;
    codes.push(`${f.example} ${nums(f, 3).join(' ')}`);
    for (const n of f.named) codes.push(`${n.name} ${nums(f, 10).join(' ')}`);
  }
  const box = clear($('game-examples'));
  box.append(': ');
  codes.forEach((c, i) => box.append(i ? ', ' : '', h('code', {}, c)));
  const sum = games.filter((f) => f.arity >= 1).slice(0, 3);
  $('sum-example').textContent = sum.map((f) => `${f.example} ${nums(f, 3).join(' ')}`).join(' + ');
}

async function init() {
  translatePage();
  themeSwitch($('theme'));
  textSizeSwitch($('text-size'));
  // before the first await: a question asked while the games load is
  // answered, not sent as a plain form that reloads the page
  $('ask').addEventListener('submit', analyse);
  $('more').addEventListener('click', morePage);
  try {
    gameExamples(await loadGames());
  } catch (e) {
    $('ask-error').textContent = T('err.games', {why: e.message});
  }
  const q = new URLSearchParams(location.search);
  if (q.has('p')) {
    $('position').value = q.get('p');
    $('misere').checked = q.get('misere') === '1';
    analyse();
  }
}

init();
