// Browser tests of the bouton web app, run by run.sh:
//   node test.mjs URL ARTIFACT-DIR
// Debian's chromium, driven by playwright-core (never a downloaded
// browser).  Each test plays the page as a person would, by clicking
// counters or with the keyboard, and checks what the page shows against
// numbers computed here from the rules (BigInt XOR for Nim, the safe pairs
// for Wythoff), not against the page's own code.  Screenshots of every
// test go to ARTIFACT-DIR.
import assert from 'node:assert/strict';
import {createRequire} from 'node:module';
import {execFileSync} from 'node:child_process';
import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const {chromium} = require('playwright-core');

const [url, artifacts] = process.argv.slice(2);
if (!url || !artifacts) {
  console.error('usage: node test.mjs URL ARTIFACT-DIR');
  process.exit(2);
}
mkdirSync(artifacts, {recursive: true});
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

const xor = (xs) => xs.reduce((a, b) => a ^ b, 0n);

// ------------------------------------------------------------ helpers

async function newGame(page, {game = 'nim', start, misere, mode = 'computer', level = 'perfect', first = 'me', param}) {
  await page.goto(url);
  // the last game may come back from storage, the setup folded: unfold it
  await page.waitForSelector('#game:not([disabled])', {state: 'attached'});
  if (await page.isVisible('#setup-open')) await page.click('#setup-open');
  await page.selectOption('#game', game);
  if (param !== undefined) {
    await page.fill('#param', param);
    await page.press('#param', 'Tab'); // its change event draws a new start
  }
  if (misere !== undefined) await page.setChecked('#misere', misere);
  await page.fill('#start', start);
  await page.check(mode === 'computer' ? '#mode-computer' : '#mode-two');
  if (mode === 'computer') {
    await page.selectOption('#level', level);
    await page.selectOption('#first', first);
  }
  // the board of a game restored from storage is not the new game's
  await page.$$eval('#piles .comp', (cs) => cs.forEach((c) => c.setAttribute('data-stale', '')));
  await page.click('#start-game');
  await page.waitForSelector('#piles .comp:not([data-stale])');
}

// Waits until it is the person's move or the game is over; returns status.
async function settle(page) {
  await page.waitForFunction(() => {
    const s = document.getElementById('status').textContent;
    return s.startsWith('Your move') || s.startsWith('Game over') || s.includes('to move');
  }, null, {timeout: 15000});
  return page.textContent('#status');
}

// The piles as drawn: [BigInt] of every row of every component.
async function piles(page) {
  const texts = await page.$$eval('#piles .row-label', (els) => els.map((e) =>
    e.textContent.replace(/^.*:\s*/, '')));
  return texts.map((t) => BigInt(t));
}

async function recordLines(page) {
  return (await page.textContent('#record')).trim().split('\n');
}

// Clicks counter j (0-based) of row r of component i: takes it and all
// after it in the pile.
async function clickCounter(page, i, r, j) {
  await page.click(`svg.pile[data-comp="${i}"][data-row="${r}"] circle[data-j="${j}"]`);
}

const shot = (page, name) => page.screenshot({path: path.join(artifacts, name + '.png'), fullPage: true});

// -------------------------------------------------------------- tests

const tests = [];
const test = (name, fn) => tests.push({name, fn});

test('a whole game of Nim against the computer, lost from an N-position', async (page) => {
  await newGame(page, {start: '3 4 5'});
  let p = await piles(page);
  assert.notEqual(xor(p), 0n, '3 4 5 is an N-position');
  let moves = 0;
  for (;;) {
    const status = await settle(page);
    if (status.startsWith('Game over')) break;
    p = await piles(page);
    if (moves > 0) assert.equal(xor(p), 0n, `the computer left a safe combination, not ${p}`);
    // A poor move: one counter from the first non-empty pile, by clicking
    // its last counter and then Take.
    const i = p.findIndex((x) => x > 0n);
    await clickCounter(page, i, 0, Number(p[i]) - 1);
    assert.equal(await page.getAttribute(`svg.pile[data-comp="${i}"] circle[data-j="${Number(p[i]) - 1}"]`, 'class'), 'counter chosen');
    await page.click('#take');
    moves++;
    assert.ok(moves < 40, 'the game ends');
  }
  const status = await page.textContent('#status');
  assert.match(status, /Game over: Computer \(perfect\) wins/);
  // at game over: Play again (the same start) and New game
  assert.ok(await page.isVisible('#play-again'), 'a Play again button');
  assert.ok(await page.isVisible('#new-game'), 'a New game button');
  const lines = await recordLines(page);
  assert.equal(lines.filter((l) => l.startsWith('-A->')).length, moves);
  assert.match(lines.find((l) => l.startsWith('-B->') && l.includes('(0,0,0)')) || '', /-B-> \(0,0,0\)/);
  assert.equal(lines[lines.length - 1], 'result: B wins');
  await shot(page, 'nim-lost');
  await page.click('#play-again');
  await settle(page);
  assert.deepEqual(await piles(page), [3n, 4n, 5n]);
  assert.equal((await recordLines(page)).filter((l) => l.startsWith('-')).length, 0);
  assert.equal(await page.isVisible('#play-again'), false);
});

test('a hint, followed', async (page) => {
  await newGame(page, {start: '9 5 7'});
  await page.click('#hint');
  await page.waitForSelector('#hint-box .play-move');
  const text = await page.textContent('#hint-box .moves');
  // 9 ^ 5 ^ 7 = 11: the only winning move leaves 9 ^ 11 = 2? No: pile p
  // becomes p ^ 11 where that is smaller: 9 -> 2, 5 -> 14 (no), 7 -> 12 (no).
  assert.match(text, /take 7 from pile 1/);
  // defect 3: no stray "null" under the moves of a winning position
  assert.doesNotMatch(await page.textContent('#hint-box'), /null/);
  await shot(page, 'hint');
  await page.focus('#hint-box .play-move');
  await page.keyboard.press('Enter');
  // defect 11: the keyboard focus stays on the board
  assert.ok(await page.evaluate(() => document.activeElement !== document.body &&
    document.getElementById('board').contains(document.activeElement)), 'focus on the board after Play this move');
  const lines = await recordLines(page);
  assert.ok(lines.includes('-A-> (2,5,7)'), 'the hint was played');
  await settle(page);
  const p = await piles(page);
  assert.notEqual(xor(p), 0n, 'from a safe combination the computer must leave an unsafe one');
});

test('misère Nim: the hint differs from normal play and wins', async (page) => {
  await newGame(page, {game: 'misere-nim', start: '1 1 2'});
  assert.equal(await page.isChecked('#misere'), true);
  assert.match(await page.textContent('#rules'), /Misère play/);
  for (let turn = 0; turn < 5; turn++) {
    const status = await settle(page);
    if (status.startsWith('Game over')) break;
    await page.click('#hint');
    await page.waitForSelector('#hint-box .play-move');
    if (turn === 0) {
      // Normal play would empty pile 3 (nim-sum 0); misère play (Bouton
      // sec. 6) leaves an odd number of single counters: 1 1 1.
      assert.match(await page.textContent('#hint-box .moves'), /take 1 from pile 3/);
      await shot(page, 'misere-hint');
    }
    await page.click('#hint-box .play-move');
  }
  await settle(page);
  assert.match(await page.textContent('#status'), /Game over: You win \(misère play: the last mover loses\)/);
  const lines = await recordLines(page);
  assert.ok(lines.includes('rules: misère'));
  assert.equal(lines[lines.length - 1], 'result: A wins');
  assert.ok(lines.includes('-A-> (1,1,1)'));
  await shot(page, 'misere-won');
});

test("Wythoff's game: a move on both piles", async (page) => {
  await newGame(page, {game: 'wythoff', start: '4 6'});
  // The two piles of the pair are drawn from one left edge, one counter
  // spacing, so that they can be compared.
  const boxes = await page.$$eval('svg.pile[data-comp="0"]', (els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    const c = e.querySelectorAll('circle[data-j]');
    return {x: r.left, step: c[1].getBoundingClientRect().left - c[0].getBoundingClientRect().left};
  }));
  assert.equal(boxes.length, 2);
  assert.ok(Math.abs(boxes[0].x - boxes[1].x) < 1, `the piles start at ${boxes[0].x} and ${boxes[1].x}`);
  assert.ok(Math.abs(boxes[0].step - boxes[1].step) < 0.5);
  // An illegal move first: 1 from one pile and 2 from the other.
  await clickCounter(page, 0, 0, 3);
  await clickCounter(page, 0, 1, 4);
  await page.click('#take');
  assert.match(await page.textContent('#move-error'), /same number/);
  // Now 1 from both: (4,6) -> (3,5), Wythoff's safe pair A_2 = 3, B_2 = 5.
  await page.click('#clear-sel');
  await clickCounter(page, 0, 0, 3);
  await clickCounter(page, 0, 1, 5);
  await shot(page, 'wythoff-chosen');
  await page.click('#take');
  const lines = await recordLines(page);
  assert.ok(lines.includes('-A-> (3,5)'), lines.join('\n'));
  await settle(page);
  await page.click('#analysis summary');
  await page.waitForSelector('table.pairs tbody tr');
  const pairs = await page.$$eval('table.pairs tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  // The normal-play safe pairs (n, A_n, B_n) from the mex construction.
  const expect = [];
  const used = new Set();
  for (let n = 0, a = 0; n < 12; n++) {
    while (used.has(a)) a++;
    expect.push([n, a, a + n]);
    used.add(a);
    used.add(a + n);
  }
  for (const row of pairs) {
    const [n, a, b] = row.slice(0, 3).map(Number);
    assert.deepEqual([n, a, b], expect[n], `pair ${n}`);
  }
  await shot(page, 'wythoff-analysis');
});

test('a 60-digit pile: exact answers', async (page) => {
  const big = '123456789012345678901234567890123456789012345678901234567890';
  const other = '987654321098765432109876543210987654321098765432109876543210';
  assert.equal(big.length, 60);
  // The analysis page: the winning move, exactly.
  await page.goto(url + 'analyze.html');
  await page.fill('#position', `${big} ${other} 5`);
  await page.click('#go');
  await page.waitForSelector('#outcome .moves li');
  const ps = [BigInt(big), BigInt(other), 5n];
  const s = xor(ps);
  const winning = ps.map((p, i) => [i, p ^ s]).filter(([i, t]) => t < ps[i]);
  const items = await page.$$eval('#outcome .moves li .move-to', (els) => els.map((e) => e.textContent));
  assert.equal(items.length, winning.length);
  for (const [i, t] of winning) {
    assert.ok(items.some((x) => x.includes(`component ${i + 1} \u2192 ${t}`)), `move to ${t}`);
  }
  await shot(page, 'bigpile-analysis');
  // The play page: the big pile gets a number field; typing how many to
  // take (as the hint says) plays it, and the record keeps every digit.
  await newGame(page, {start: `${big} ${other} 5`});
  assert.equal(await page.$$eval('input.bigpile', (els) => els.length), 2);
  const [i, t] = winning[0];
  const field = `input.bigpile[data-comp="${i}"]`;
  await page.fill(field, String(ps[i] - t));
  await page.press(field, 'Enter');
  const after = ps.slice();
  after[i] = t;
  const lines = await recordLines(page);
  assert.ok(lines.includes(`-A-> (${after.join(',')})`), lines.join('\n'));
  await settle(page);
  const now = await piles(page);
  assert.notEqual(xor(now), 0n);
  await shot(page, 'bigpile-play');
});

test('the binary-column panel (Beardon: 41, 163, 13)', async (page) => {
  await newGame(page, {start: '41 163 13', mode: 'two'});
  await page.click('#analysis summary');
  await page.waitForSelector('table.binary tfoot tr.sums');
  const sums = await page.$$eval('table.binary tfoot tr.sums td', (tds) => tds.slice(1).map((td) => td.textContent));
  // Beardon writes the units first: sums 3 1 1 2 0 2 0 1; the panel, as
  // Bouton, writes the units last.
  assert.deepEqual(sums, ['3', '1', '1', '2', '0', '2', '0', '1'].reverse());
  const odd = await page.$$eval('table.binary tfoot tr.sums td', (tds) => tds.slice(1).map((td) => td.classList.contains('odd')));
  assert.deepEqual(odd, [true, false, false, false, false, true, true, true]);
  const lead = await page.$$eval('table.binary tfoot tr.sums td.lead', (tds) => tds.length);
  assert.equal(lead, 1);
  const rows = await page.$$eval('table.binary tbody tr', (trs) => trs.map((tr) => ({
    bits: [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent).join(''),
    shrink: tr.classList.contains('shrink'),
  })));
  assert.deepEqual(rows.map((r) => r.bits), ['00101001', '10100011', '00001101']);
  // The leftmost odd column is 2^7, where only 163 has a 1.
  assert.deepEqual(rows.map((r) => r.shrink), [false, true, false]);
  await shot(page, 'binary-panel');
  // Two people on one screen: A moves, then it is B's turn.
  assert.match(await page.textContent('#status'), /Player A to move/);
  await clickCounter(page, 0, 0, 25);
  await clickCounter(page, 0, 0, 25); // a second click on the chosen counter takes
  assert.match(await page.textContent('#status'), /Player B to move/);
});

test('keyboard only: choose with the arrows, take with Enter, undo', async (page) => {
  await newGame(page, {start: '3 4 5'});
  const pile = 'svg.pile[data-comp="0"]';
  await page.focus(pile);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute(pile, 'aria-valuetext'), 'take 2, leaving 1');
  await page.keyboard.press('Enter');
  let lines = await recordLines(page);
  assert.ok(lines.includes('-A-> (1,4,5)'));
  await settle(page);
  await page.keyboard.press('u');
  lines = await recordLines(page);
  assert.equal(lines.filter((l) => l.startsWith('-')).length, 0, 'undo takes back both moves');
  assert.deepEqual(await piles(page), [3n, 4n, 5n]);
  await shot(page, 'keyboard');
});

test('a sum of games: Grundy values and their nim-sum', async (page) => {
  await newGame(page, {game: 'sum', start: 'nim 3 + kayles 4 + wythoff 1 2 + sub:1-3 6'});
  await page.click('#analysis summary');
  await page.waitForSelector('table.components tbody tr');
  const g = await page.$$eval('table.components tbody tr', (trs) => trs.map((tr) => tr.lastElementChild.textContent));
  // Nim heap 3: 3; Kayles 4: 1 (0.77: 0,1,2,3,1); Wythoff (1,2): 0 (a safe
  // pair); take 1-3 from 6: 6 mod 4 = 2.
  assert.deepEqual(g, ['3', '1', '0', '2']);
  const nimsum = await page.textContent('table.binary tr.nimsum td.num');
  assert.equal(nimsum, String(3 ^ 1 ^ 0 ^ 2));
  await shot(page, 'sum');
});

test('the game record: download it and load it back', async (page) => {
  await newGame(page, {start: '2 3', mode: 'two'});
  await clickCounter(page, 1, 0, 2);
  await page.click('#take');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const file = path.join(artifacts, 'record.txt');
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  assert.match(text, /^# bouton game record\n/);
  assert.match(text, /\ngame: nim\nrules: normal\nfirst: A\n/);
  assert.match(text, /\(2,3\)\n-A-> \(2,2\)\n/);
  // The downloaded record loads back (read by the library's parser).
  await page.click('#paste summary');
  await page.fill('#paste-text', text);
  await page.click('#load');
  await page.waitForFunction(() => /Loaded 1 move/.test(document.getElementById('status').textContent));
  assert.deepEqual(await piles(page), [2n, 2n]);
  // Beardon's chained notation, pasted in, resumes the game.
  await page.goto(url);
  await page.click('#paste summary');
  await page.fill('#paste-text', '(41,163,13) -A-> (25,163,13) -B-> (25,19,13)');
  await page.check('#mode-two');
  await page.click('#load');
  await page.waitForFunction(() => document.getElementById('record').textContent.includes('(25,19,13)'));
  assert.deepEqual(await piles(page), [25n, 19n, 13n]);
  assert.match(await page.textContent('#status'), /Player A to move/);
  // Loading a record sets the New game form to its game.
  await page.fill('#paste-text', 'game: kayles\n(3,4) -A-> (1,4)');
  await page.click('#load');
  await page.waitForFunction(() => /Loaded 1 move/.test(document.getElementById('status').textContent));
  assert.equal(await page.inputValue('#game'), 'octal');
  assert.equal(await page.inputValue('#param'), '0.77');
  assert.equal(await page.inputValue('#start'), '3 4');
  // An illegal record is refused with a reason.
  await page.fill('#paste-text', '(3,4,5) -A-> (3,4,6)');
  await page.click('#load');
  await page.waitForFunction(() => document.getElementById('load-error').textContent !== '');
  assert.match(await page.textContent('#load-error'), /not a legal move/);
});

test('the analysis page: outcome, moves, explanation and the safe table', async (page) => {
  await page.goto(url + 'analyze.html');
  await page.fill('#position', '3 4 5');
  await page.press('#position', 'Enter');
  await page.waitForSelector('#table-body table tbody tr');
  assert.match(await page.textContent('#outcome'), /N-position/);
  assert.match(await page.textContent('#outcome .moves'), /take 2 from pile 1/);
  assert.match(await page.textContent('#explain'), /binary/);
  const rows = await page.$$eval('#table-body tbody tr', (trs) => trs.map((tr) => tr.textContent));
  assert.ok(rows.some((r) => r.includes('your position')));
  for (const r of await page.$$eval('#table-body tbody tr:not(.here)', (trs) => trs.map((tr) => [...tr.querySelectorAll('td.num')].map((td) => td.textContent)))) {
    assert.equal(xor(r.map(BigInt)), 0n, `${r} is safe`);
  }
  await shot(page, 'analysis-page');
  // A syntax error points at its column.
  await page.fill('#position', 'nim 3 x 5');
  await page.click('#go');
  await page.waitForFunction(() => document.getElementById('ask-error').textContent !== '');
  assert.match(await page.textContent('#ask-error'), /column 7/);
});

test('Kayles: choosing counters in the middle splits a heap', async (page) => {
  await newGame(page, {game: 'octal', param: 'kayles', start: '7', mode: 'two'});
  // Plain words for the rules; the code's meaning in a details box.
  assert.doesNotMatch(await page.textContent('#rules > p'), /digit|octal/);
  assert.match(await page.textContent('#rules > p'), /Kayles: .*take 1 or 2 counters side by side, anywhere in a row/);
  assert.match(await page.textContent('#rules details'), /octal 0\.77/);
  assert.match(await page.textContent('#board-help'), /splits the heap/);
  // Three adjacent pins may not be taken in Kayles (0.77: one or two).
  await clickCounter(page, 0, 0, 2);
  await clickCounter(page, 0, 0, 4);
  await page.click('#take');
  assert.match(await page.textContent('#move-error'), /may not take 3/);
  await page.click('#clear-sel');
  // Pins 3 and 4 of 7: heaps of 2 and 3 are left.
  await clickCounter(page, 0, 0, 2);
  await clickCounter(page, 0, 0, 3);
  await page.click('#take');
  assert.ok((await recordLines(page)).includes('-A-> (2,3)'));
  assert.deepEqual(await piles(page), [2n, 3n]);
  assert.match(await page.textContent('#status'), /Player B to move/);
  await shot(page, 'kayles-split');
});

test('a phone-sized screen', async (page) => {
  await page.setViewportSize({width: 360, height: 740});
  await newGame(page, {start: '7 12 15 3'});
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px too wide)`);
  // Tap targets of at least 44 px: counters and buttons.
  const small = await page.evaluate(() => [...document.querySelectorAll('#board button, #setup button, #setup select, svg.pile circle[data-j]')]
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden' && e.offsetParent !== null || e.tagName === 'circle')
    .map((e) => ({id: e.id || e.getAttribute('data-j'), w: e.getBoundingClientRect().width, h: e.getBoundingClientRect().height}))
    .filter((r) => r.w > 0 && (r.h < 44 || (r.w < 44))));
  assert.deepEqual(small, [], 'every tap target is at least 44 px');
  // A tap on a counter works as a click does.
  await clickCounter(page, 2, 0, 10);
  await page.click('#take');
  assert.ok((await recordLines(page)).includes('-A-> (7,12,10,3)'));
  await settle(page);
  await shot(page, 'phone');
});


// ------------------------------------------ the defects of issue 9, sec. 2

// Holds every request to path until release() is called.
function hold(page, pathGlob) {
  let release;
  const gate = new Promise((res) => { release = res; });
  let seen = 0;
  const ready = page.route(pathGlob, async (route) => {
    seen++;
    await gate;
    await route.continue().catch(() => {});
  });
  return {ready, release: () => release(), seen: () => seen};
}

test('defect 1: a new game while the computer thinks drops the old reply', async (page) => {
  await page.goto(url);
  const h1 = hold(page, '**/v1/move');
  await h1.ready;
  await newGame(page, {start: '3 4 5', first: 'computer'});
  await page.waitForFunction(() => /thinking/.test(document.getElementById('status').textContent));
  // a new game (I move first) while the reply to the old one is on its way
  await page.click('#setup-open');
  await page.selectOption('#first', 'me');
  await page.fill('#start', '1 2');
  await page.click('#start-game');
  await page.waitForFunction(() => document.getElementById('record').textContent.includes('(1,2)'));
  h1.release();
  await page.waitForTimeout(700);
  assert.ok(h1.seen() >= 1);
  assert.deepEqual(await piles(page), [1n, 2n]);
  assert.equal((await recordLines(page)).filter((l) => l.startsWith('-')).length, 0, 'no move from the old game');
  assert.match(await page.textContent('#status'), /Your move/);
  // and the board plays on
  await clickCounter(page, 1, 0, 1);
  await page.click('#take');
  assert.ok((await recordLines(page)).includes('-A-> (1,1)'));
});

test('defect 2: a failed computer move offers retry, undo and a new game', async (page) => {
  await page.goto(url);
  let fail = true;
  await page.route('**/v1/move', (route) => (fail
    ? route.fulfill({status: 422, contentType: 'application/json',
      body: JSON.stringify({error: {code: 'ELIMIT', message: 'the time budget ran out during the search'}})})
    : route.continue()));
  await newGame(page, {start: '3 4 5'});
  await clickCounter(page, 0, 0, 1);
  await page.click('#take');
  await page.waitForSelector('#move-error .retry');
  assert.match(await page.textContent('#move-error'), /time budget/);
  assert.match(await page.textContent('#status'), /could not move/);
  assert.equal(await page.isEnabled('#move-error .err-undo'), true);
  assert.equal(await page.isEnabled('#undo'), true);
  assert.ok(await page.isVisible('#move-error .err-new'));
  await shot(page, 'move-failed');
  fail = false;
  await page.click('#move-error .retry');
  await settle(page);
  const lines = await recordLines(page);
  assert.equal(lines.filter((l) => l.startsWith('-B->')).length, 1, 'the retry played');
  assert.equal(await page.$$eval('#move-error .retry', (els) => els.length), 0);
});

test('defect 4: emptied heaps keep their places (Kayles)', async (page) => {
  await newGame(page, {game: 'octal', param: 'kayles', start: '2 3', mode: 'two'});
  // A takes both pins of heap 1: it stays, empty, and heap 2 keeps its name
  await clickCounter(page, 0, 0, 0);
  await clickCounter(page, 0, 0, 1);
  await page.click('#take');
  assert.deepEqual(await piles(page), [0n, 3n]);
  assert.deepEqual(await page.$$eval('#piles .row-label', (els) => els.map((e) => e.textContent)), ['heap 1: 0', 'heap 2: 3']);
  assert.ok((await recordLines(page)).includes('-A-> (3)'), 'the record writes the position as the server does');
  // B takes pins 2 and 3 of heap 2, A the last one: every heap gone
  await clickCounter(page, 1, 0, 1);
  await clickCounter(page, 1, 0, 2);
  await page.click('#take');
  assert.deepEqual(await piles(page), [0n, 1n]);
  await clickCounter(page, 1, 0, 0);
  await page.click('#take');
  assert.deepEqual(await piles(page), [0n, 0n]);
  assert.match(await page.textContent('#rules'), /^Kayles/);
  assert.match(await page.textContent('#status'), /Game over: Player A wins/);
  await shot(page, 'kayles-empty');
});

test('defect 5: the analysis page clears its answer and shows it is busy', async (page) => {
  await page.goto(url + 'analyze.html');
  await page.fill('#position', '3 4 5');
  await page.click('#go');
  await page.waitForSelector('#outcome .moves li');
  // an error: the old answer goes
  await page.fill('#position', 'nim 3 x 5');
  await page.click('#go');
  await page.waitForFunction(() => document.getElementById('ask-error').textContent !== '');
  assert.equal(await page.isVisible('#result'), false, 'no old answer under an error');
  // a slow request: busy line, button disabled, no old answer
  await page.fill('#position', '3 4 5');
  await page.click('#go');
  await page.waitForSelector('#outcome .moves li');
  const h1 = hold(page, '**/v1/analyze');
  await h1.ready;
  await page.fill('#position', '9 5 12');
  await page.click('#go');
  await page.waitForFunction(() => document.getElementById('go').disabled);
  assert.ok(await page.isVisible('#busy'));
  assert.equal(await page.isVisible('#result'), false);
  h1.release();
  await page.waitForSelector('#result:not([hidden]) .outcome.P');
  assert.equal(await page.isEnabled('#go'), true);
  assert.equal(await page.isVisible('#busy'), false);
});

test('defect 6: long numbers stay inside the page', async (page) => {
  const big = '7' + '1234567890'.repeat(100); // 1001 digits
  await newGame(page, {start: `${big} 5`});
  await page.click('#hint');
  await page.waitForSelector('#hint-box .play-move');
  await page.click('#analysis summary');
  await page.waitForSelector('#analysis-body table.binary');
  let over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `a 1000-digit pile: ${over}px too wide`);
  await page.click('#hint-box .play-move');
  await settle(page);
  over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `after the moves: ${over}px too wide`);
  // a phone, a 60-digit pile: no sideways page; the binary table keeps the
  // number on one line (it scrolls in its box)
  await page.setViewportSize({width: 360, height: 740});
  const b60 = '123456789012345678901234567890123456789012345678901234567890';
  await newGame(page, {start: `${b60} 9`, mode: 'two'});
  await page.click('#analysis summary');
  await page.waitForSelector('#analysis-body table.binary');
  over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `a phone: ${over}px too wide`);
  const [hBig, hSmall] = await page.$$eval('#analysis-body table.binary tbody td.num', (tds) => tds.map((t) => t.getBoundingClientRect().height));
  assert.ok(hBig <= hSmall + 1, `the 60-digit number in one row (${hBig} vs ${hSmall})`);
  await shot(page, 'long-numbers');
});

test('defect 7: too many winning moves to list is said', async (page) => {
  await page.goto(url + 'analyze.html');
  await page.fill('#position', 'kayles 1000000000000');
  await page.click('#go');
  await page.waitForSelector('#outcome .outcome');
  const text = await page.textContent('#outcome .outcome');
  assert.match(text, /N-position/);
  assert.match(text, /too many winning moves/);
  // and which are listed, and why (the API's winning_moves_note)
  const note = await page.textContent('#outcome .moves-note');
  assert.match(note, /max_search limit/);
});

test('remoteness as a number, a decimal string or null', async (page) => {
  // the API's remoteness: a number (older servers), a decimal string, or
  // null with a reason; the page shows each honestly
  let form = 'string';
  await page.route('**/v1/analyze', async (route) => {
    const resp = await route.fetch();
    const json = await resp.json();
    if (form === 'string') json.remoteness = '26';
    else if (form === 'number') json.remoteness = 26;
    else {
      json.remoteness = null;
      json.remoteness_reason = 'not known cheaply';
    }
    await route.fulfill({response: resp, json});
  });
  await page.goto(url + 'analyze.html');
  for (const [f, want] of [['string', /Remoteness 26\./], ['number', /Remoteness 26\./], ['null', /Remoteness unknown \(not known cheaply\)/]]) {
    form = f;
    await page.fill('#position', '9 5 12');
    await page.click('#go');
    await page.waitForSelector('#result:not([hidden]) .outcome');
    const text = await page.textContent('#outcome .outcome');
    assert.match(text, want, f);
    assert.doesNotMatch(text, /null|undefined/);
  }
});

test('defect 8: on a phone the binary table says it scrolls', async (page) => {
  await page.setViewportSize({width: 360, height: 740});
  await newGame(page, {start: '9 5 12', mode: 'two'});
  await page.click('#analysis summary');
  await page.waitForSelector('#analysis-body table.binary');
  await page.waitForTimeout(100);
  const st = await page.$eval('#analysis-body table.binary', (t) => {
    const box = t.closest('.scroll');
    const cue = box.parentElement.querySelector('.scroll-cue');
    return {over: box.scrollWidth > box.clientWidth + 1, cue: !!cue && !cue.hidden, focusable: box.tabIndex >= 0};
  });
  assert.ok(!st.over || st.cue, 'a table wider than the screen shows a scroll cue');
  assert.ok(st.focusable, 'the scroll box can be scrolled from the keyboard');
  // scrolled to its end, the units column and its sum are on screen
  await page.$eval('#analysis-body .scroll', (b) => { b.scrollLeft = b.scrollWidth; });
  const unit = await page.$eval('#analysis-body table.binary tfoot tr.sums td:last-child', (td) => td.getBoundingClientRect().right);
  assert.ok(unit <= 360, `the units column at ${unit}px`);
  await shot(page, 'phone-binary');
});

test('defect 9: the explanation aligns numbers on the right', async (page) => {
  await page.goto(url + 'analyze.html');
  await page.fill('#position', '9 5 12');
  await page.click('#go');
  await page.waitForSelector('#result:not([hidden])');
  const rows = (await page.textContent('#explain')).split('\n').filter((l) => /^ {2}pile /.test(l));
  assert.equal(rows.length, 3);
  const eq = rows.map((l) => l.indexOf(' = '));
  assert.deepEqual(eq, [eq[0], eq[0], eq[0]], rows.join('\n'));
  assert.deepEqual(rows.map((l) => l.length), [rows[0].length, rows[0].length, rows[0].length]);
});

test('defect 10: a pile too big to draw: how many to take, and a clear error', async (page) => {
  const big = '1' + '0'.repeat(70);
  await newGame(page, {start: `${big} 3`, mode: 'two'});
  const field = 'input.bigpile[data-comp="0"]';
  await page.fill(field, big + '1');
  await page.press(field, 'Enter');
  assert.match(await page.textContent('#move-error'), /pile 1 has 1\d{70} counters; you cannot take 1\d{70}1/);
  await page.fill(field, '0');
  await page.press(field, 'Enter');
  assert.match(await page.textContent('#move-error'), /take at least one counter/);
  // the hint's "take N" is what the field takes
  await page.click('#hint');
  await page.waitForSelector('#hint-box .play-move');
  const m = /take (\d+) from pile 1/.exec(await page.textContent('#hint-box .moves'));
  assert.ok(m, 'the hint takes from pile 1');
  await page.fill(field, m[1]);
  await page.press(field, 'Enter');
  const left = BigInt(big) - BigInt(m[1]);
  assert.deepEqual(await piles(page), [left, 3n]);
  assert.equal(left ^ 3n, 0n, 'the hint was a winning move');
});

// ------------------------------------- like the best game sites (sec. 3)

test('move values: every move coloured winning or losing', async (page) => {
  await newGame(page, {start: '3 4 5'});
  await page.check('#show-values');
  await page.waitForSelector('#values-box .value-list li');
  // the best 8 first; Show all lists every move
  if (await page.isVisible('#values-box .values-all')) await page.click('#values-box .values-all');
  const items = await page.$$eval('#values-box .value-list li', (lis) => lis.map((li) => ({
    win: li.classList.contains('v-win'), text: li.textContent})));
  const ps = [3n, 4n, 5n];
  const expect = [];
  ps.forEach((p, i) => { for (let t = 0n; t < p; t++) { const q = ps.slice(); q[i] = t; expect.push(xor(q) === 0n); } });
  assert.equal(items.length, expect.length, 'every legal move listed');
  assert.deepEqual(items.map((x) => x.win).sort(), expect.sort());
  assert.ok(items.every((x) => /(wins|loses) in \d+/.test(x.text)), 'with remoteness');
  // on the counters: taking from counter j of pile i leaves j
  await page.waitForSelector('svg.pile circle.v-win');
  const coloured = await page.$$eval('svg.pile circle[data-j]', (cs) => cs.map((c) => ({
    i: Number(c.closest('svg').getAttribute('data-comp')), j: Number(c.getAttribute('data-j')),
    win: c.classList.contains('v-win'), lose: c.classList.contains('v-lose')})));
  for (const c of coloured) {
    const q = ps.slice();
    q[c.i] = BigInt(c.j);
    assert.equal(c.win, xor(q) === 0n, `pile ${c.i + 1} counter ${c.j}`);
    assert.equal(c.lose, xor(q) !== 0n);
  }
  await clickCounter(page, 0, 0, 1);
  assert.match(await page.textContent('#sel-value'), /The chosen move wins/);
  await shot(page, 'move-values');
  // the subtraction game {1,2,3}: a heap of n has Grundy value n mod 4;
  // only legal moves are coloured, emptying a heap included
  await newGame(page, {game: 'sub', param: '1-3', start: '2 5', mode: 'two'});
  await page.check('#show-values');
  await page.waitForSelector('svg.pile circle.v-win, svg.pile circle.v-lose');
  const subs = await page.$$eval('svg.pile circle[data-j]', (cs) => cs.map((c) => ({
    i: Number(c.closest('svg').getAttribute('data-comp')), j: Number(c.getAttribute('data-j')),
    win: c.classList.contains('v-win'), lose: c.classList.contains('v-lose')})));
  const hs = [2, 5];
  for (const c of subs) {
    const took = hs[c.i] - c.j;
    const legal = took >= 1 && took <= 3;
    const q = hs.slice();
    q[c.i] = c.j;
    const wins = ((q[0] % 4) ^ (q[1] % 4)) === 0;
    assert.equal(c.win, legal && wins, `heap ${c.i + 1} counter ${c.j}`);
    assert.equal(c.lose, legal && !wins, `heap ${c.i + 1} counter ${c.j}`);
  }
});

test('history: view an earlier position, the value chart, continue from it', async (page) => {
  await newGame(page, {start: '3 4 5'});
  await clickCounter(page, 2, 0, 4); // 3 4 4: a losing move
  await page.click('#take');
  await settle(page);
  // the computer's move is drawn: the counters it took fade out
  assert.ok(await page.$$eval('svg.pile circle.gone', (cs) => cs.length) > 0, 'the computer\u2019s move is shown');
  await page.waitForFunction(() => document.querySelectorAll('#chart .dot').length === 3);
  // start (3,4,5): you win; after your poor move and the computer's reply
  // the computer is winning
  const sides = await page.$$eval('#chart .dot', (ds) => ds.map((d) => Number(d.getAttribute('data-side'))));
  assert.deepEqual(sides, [1, -1, -1]);
  assert.equal(await page.$$eval('#history li', (lis) => lis.length), 3);
  await page.click('#history .history-item[data-k="0"]');
  assert.deepEqual(await piles(page), [3n, 4n, 5n]);
  assert.ok(await page.isVisible('#view-box'));
  assert.equal(await page.isEnabled('#take'), false, 'a viewed position is not played');
  await page.click('#view-continue');
  assert.deepEqual(await piles(page), [3n, 4n, 5n]);
  assert.equal((await recordLines(page)).filter((l) => l.startsWith('-')).length, 0);
  assert.match(await page.textContent('#status'), /Your move/);
  await shot(page, 'history');
});

test('the games come from GET /v1/games: the select, rule texts, Moore\'s Nim played', async (page) => {
  const get = async (what, body) => (await fetch(url + 'v1/' + what, body === undefined ? {} : {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json();
  const {games} = await get('games');
  const options = async () => {
    await page.waitForSelector('#game:not([disabled])');
    return page.$$eval('#game option', (os) => os.map((o) => [o.value, o.textContent]));
  };
  // Every family of the registry is offered, under its title.
  await page.goto(url);
  let opts = await options();
  for (const f of games) assert.ok(opts.some(([v, t]) => v === f.name && t === f.title), `${f.name} offered`);
  // The page has no list of its own: a registry answer with a family left
  // out and a title changed is what the select shows.
  await page.route('**/v1/games', (route) => route.fulfill({status: 200, contentType: 'application/json',
    body: JSON.stringify({games: games.filter((f) => f.name !== 'grundy')
      .map((f) => (f.name === 'sub' ? {...f, title: 'Take-away game'} : f))})}));
  await page.goto(url);
  opts = await options();
  assert.ok(!opts.some(([v]) => v === 'grundy'), 'a family the registry lacks is not offered');
  assert.ok(opts.some(([v, t]) => v === 'sub' && t === 'Take-away game'), 'the title is the registry\'s');
  await page.unroute('**/v1/games');
  // Moore's Nim (one component of any number of piles): its parameter's
  // default is the registry's example, its rules are the server's words.
  const moore = games.find((f) => f.name === 'moore');
  assert.ok(moore && moore.arity === 0);
  await page.goto(url);
  await page.waitForSelector('#game:not([disabled])');
  await page.selectOption('#game', 'moore');
  assert.equal(await page.inputValue('#param'), moore.example.split(':')[1]);
  const spec = `moore:${await page.inputValue('#param')}`;
  const {rules} = await get('game', {game: spec});
  assert.ok(rules.length > 0);
  await page.fill('#start', '3 4 5 6');
  await page.check('#mode-two');
  await page.click('#start-game');
  await page.waitForSelector('#piles .comp');
  assert.ok((await page.textContent('#rules > p')).startsWith(rules), 'the rules from POST /v1/game');
  assert.equal(await page.$$eval('#piles .comp', (cs) => cs.length), 1, 'one component');
  assert.deepEqual(await piles(page), [3n, 4n, 5n, 6n]);
  // A move on two piles of the one component (k = 2 allows it).
  await clickCounter(page, 0, 0, 1);
  await clickCounter(page, 0, 1, 2);
  await page.click('#take');
  await page.waitForFunction(() => /Player B to move/.test(document.getElementById('status').textContent));
  assert.deepEqual(await piles(page), [1n, 2n, 5n, 6n]);
  assert.match((await recordLines(page)).join('\n'), /\(1,2,5,6\)/);
  // Three piles at once is not a move of moore:2: the server says so.
  await clickCounter(page, 0, 0, 0);
  await clickCounter(page, 0, 1, 0);
  await clickCounter(page, 0, 2, 0);
  await page.click('#take');
  await page.waitForFunction(() => document.getElementById('move-error').textContent !== '');
  assert.match(await page.textContent('#move-error'), /Not a legal move/);
  assert.deepEqual(await piles(page), [1n, 2n, 5n, 6n]);
  // Emptying every pile ends the game (the server says it is over).
  await page.click('#clear-sel');
  await page.click('#setup-open'); // the setup is folded during a game
  await page.fill('#start', '1 1');
  await page.click('#start-game');
  await page.waitForFunction(() => /Player A to move/.test(document.getElementById('status').textContent));
  await clickCounter(page, 0, 0, 0);
  await clickCounter(page, 0, 1, 0);
  await page.click('#take');
  await page.waitForFunction(() => /Game over/.test(document.getElementById('status').textContent));
  assert.match(await page.textContent('#status'), /Player A wins/);
  // Against the computer: from (1, 2) taking 1 from the second pile leaves
  // (1, 1), column sum 2, not divisible by 3: the computer takes both and
  // wins, and the page, told by the server, ends the game.
  await page.click('#setup-open');
  await page.check('#mode-computer');
  await page.selectOption('#first', 'me');
  await page.fill('#start', '1 2');
  await page.click('#start-game');
  await settle(page);
  await clickCounter(page, 0, 1, 1);
  await page.click('#take');
  await page.waitForFunction(() => /Game over/.test(document.getElementById('status').textContent));
  assert.match(await page.textContent('#status'), /Computer \(perfect\) wins/);
  assert.deepEqual(await piles(page), [0n, 0n]);
  await shot(page, 'games-registry');
  // The analysis page lists Moore's safe combinations around a position:
  // every row has each binary column's sum divisible by k + 1 = 3.
  await page.goto(url + 'analyze.html');
  await page.fill('#position', 'moore:2 3 1 3 2');
  await page.press('#position', 'Enter');
  await page.waitForSelector('#table-body table tbody tr');
  assert.match(await page.textContent('#outcome'), /P-position/);
  const trs = await page.$$eval('#table-body tbody tr', (rs) => rs.map((tr) =>
    [tr.textContent, [...tr.querySelectorAll('td.num')].map((td) => td.textContent)]));
  assert.ok(trs.some(([t]) => t.includes('your position')));
  assert.ok(trs.some(([, r]) => r.join(' ') === '1 2 3 3'), 'the position, its piles sorted');
  for (const [, r] of trs) {
    if (r.length === 0) continue;
    for (let bit = 0n; bit < 8n; bit++) {
      const s = r.reduce((acc, v) => acc + ((BigInt(v) >> bit) & 1n), 0n);
      assert.equal(s % 3n, 0n, `${r}: column ${bit}`);
    }
  }
  await shot(page, 'games-registry-analysis');
});

// ------------------------------------------------------ coin-turning games

// Mock Turtles from the rules (Ferguson I.5.2): a head at n (from 0) is
// worth the n-th odious number, 2n + 1 when n has an even number of ones.
const odious = (n) => 2n * n + (n.toString(2).split('1').length % 2 === 1 ? 1n : 0n);
const mockValue = (heads) => xor(heads.map(odious));

// The heads drawn on coin board i: ["4", "7"] or ["3,5"].
async function heads(page, i = 0) {
  return page.$$eval(`svg.coins[data-comp="${i}"] g.coin.heads`, (gs) => gs.map((g) => g.getAttribute('data-coin')));
}

// Waits until the record has the line (a coin move is checked by the
// server before it is played).
async function recorded(page, line) {
  await page.waitForFunction((l) => document.getElementById('record').textContent.split('\n').includes(l), line, {timeout: 10000})
    .catch(() => {});
  const lines = await recordLines(page);
  assert.ok(lines.includes(line), `${line} recorded: ${lines.join(' | ')}`);
}

async function clickCoin(page, key, i = 0) {
  await page.click(`svg.coins[data-comp="${i}"] g.coin[data-coin="${key}"]`);
}

test('Mock Turtles: a game played by clicking coins against the computer', async (page) => {
  await newGame(page, {game: 'mock-turtles', start: '1 4 7'});
  assert.equal(await page.textContent('#take'), 'Turn');
  assert.deepEqual(await heads(page), ['1', '4', '7']);
  // the row is numbered as the family numbers it: from coin 0
  assert.ok(await page.isVisible('svg.coins g.coin[data-coin="0"]'), 'coin 0 drawn');
  assert.match(await page.textContent('#board-help'), /coins to turn/);
  let moves = 0;
  for (;;) {
    const status = await settle(page);
    if (status.startsWith('Game over')) break;
    // a poor move: the largest head alone, clicked, then a coin below it
    // clicked twice (chosen, then not), then Turn
    const hs = (await heads(page)).map((x) => BigInt(x));
    const top = hs[hs.length - 1];
    await clickCoin(page, String(top));
    assert.match(await page.getAttribute(`svg.coins g.coin[data-coin="${top}"]`, 'class'), /chosen/);
    assert.match(await page.textContent('#sel-value'), new RegExp(`Chosen to turn: ${top} to tails`));
    if (top > 0n) {
      await clickCoin(page, '0');
      await clickCoin(page, '0');
    }
    if (moves === 0) await shot(page, 'mock-turtles-chosen');
    const left = hs.slice(0, -1);
    await page.click('#take');
    await recorded(page, `-A-> (${left.join(',')})`);
    moves++;
    const st = await settle(page);
    if (st.startsWith('Game over')) break;
    // the computer (perfect) answers an N-position with a P-position
    const after = (await heads(page)).map((x) => BigInt(x));
    if (mockValue(left) !== 0n) assert.equal(mockValue(after), 0n, `the computer left ${after}, worth ${mockValue(after)}`);
    assert.ok(moves < 20, 'the game ends');
  }
  assert.match(await page.textContent('#status'), /Game over/);
  assert.deepEqual(await heads(page), [], 'all tails at the end');
  await shot(page, 'mock-turtles-game');
});

test('Turning Corners: a move on the grid, the hint marked on the board', async (page) => {
  await newGame(page, {game: 'corners', start: '2,3', mode: 'two'});
  assert.deepEqual(await heads(page), ['2,3']);
  // 2 nim-times 3 = 1: an N-position; every winning move turns the one head
  await page.click('#hint');
  await page.waitForSelector('#hint-box .play-move');
  await page.waitForSelector('svg.coins g.coin.win');
  assert.match(await page.getAttribute('svg.coins g.coin[data-coin="2,3"]', 'class'), /\bwin\b/);
  await page.hover('#hint-box .moves li');
  assert.ok(await page.$$eval('svg.coins g.coin.focus-win', (gs) => gs.length) === 4, 'a winning move: four corners outlined');
  await shot(page, 'corners-hint');
  // the corners of the rectangle (0,1)-(2,3): the farthest goes to tails
  for (const k of ['0,1', '0,3', '2,1', '2,3']) await clickCoin(page, k);
  assert.match(await page.textContent('#sel-value'), /\(2,3\) to tails; \(0,1\), \(0,3\), \(2,1\) to heads/);
  await shot(page, 'corners-chosen');
  await page.click('#take');
  await page.waitForFunction(() => /Player B to move/.test(document.getElementById('status').textContent));
  const lines = await recordLines(page);
  assert.ok(lines.includes('-A-> (0,1,0,3,2,1)'), `the move recorded: ${lines}`);
  assert.deepEqual(await heads(page), ['0,1', '2,1', '0,3']);
  // the board keeps its size as heads go: 4 x 5 coins
  assert.equal(await page.$$eval('svg.coins g.coin', (gs) => gs.length), 20);
  await shot(page, 'corners-moved');
});

test('coins: an illegal selection is refused with the server\'s message', async (page) => {
  await newGame(page, {game: 'mock-turtles', start: '1 4 7', mode: 'two'});
  // four coins: Mock Turtles turns at most three
  for (const k of ['2', '3', '5', '7']) await clickCoin(page, k);
  await page.click('#take');
  await page.waitForFunction(() => document.getElementById('move-error').textContent !== '');
  const err = await page.textContent('#move-error');
  assert.match(err, /^Not a legal move: \(1,4,7\) to \(1,2,3,4,5\) is not a move of component 1 \(mock-turtles\)\.$/);
  assert.deepEqual(await heads(page), ['1', '4', '7'], 'the board unchanged');
  assert.equal((await recordLines(page)).filter((l) => l.startsWith('-')).length, 0);
  await shot(page, 'coins-illegal');
  // the move values: the winning moves (to value 0; 1 4 7 is worth
  // 2 ^ 8 ^ 14 = 4) outlined on the board, each turning coin 7
  await page.check('#show-values');
  await page.waitForSelector('#values-box .value-list');
  await page.waitForSelector('svg.coins g.coin.win');
  const wins = await page.$$eval('#values-box li.v-win .value-move', (bs) => bs.map((b) => b.textContent));
  assert.equal(wins.length, 3, `three winning moves: ${wins}`);
  for (const w of wins) assert.match(w, /^turn coin 7 to tails/);
  const marked = await page.$$eval('svg.coins g.coin.win', (gs) => gs.map((g) => g.getAttribute('data-coin')));
  assert.deepEqual(marked, ['0', '1', '3', '4', '5', '6', '7'], 'the coins of {7,1,4}, {7,0,5}, {7,3,6}');
  await page.hover('#values-box li.v-win');
  assert.equal(await page.$$eval('svg.coins g.coin.focus-win', (gs) => gs.length), 3, 'the move under the pointer: its three coins');
  await shot(page, 'coins-values');
  await page.uncheck('#show-values');
  // a tail as the farthest coin: refused too
  await page.click('#clear-sel');
  await clickCoin(page, '8');
  await page.click('#take');
  await page.waitForFunction(() => /not a move/.test(document.getElementById('move-error').textContent));
  assert.deepEqual(await heads(page), ['1', '4', '7']);
});

test('coins: keyboard-only play on the row (Turning Turtles)', async (page) => {
  await newGame(page, {game: 'turtles', start: '1 4 6 7'});
  const board = 'svg.coins[data-comp="0"]';
  await page.focus(board);
  // the cursor starts on the largest head: Space chooses it, five steps
  // left and Space choose coin 2, Enter turns them
  await page.keyboard.press(' ');
  for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press(' ');
  assert.match(await page.textContent('#sel-value'), /Chosen to turn: 7 to tails; 2 to heads/);
  await shot(page, 'coins-keyboard');
  await page.keyboard.press('Enter');
  await recorded(page, '-A-> (1,2,4,6)');
  await settle(page);
  // Turning Turtles is Nim (a head at n is a heap of n): the computer
  // leaves heads whose numbers nim-sum to 0
  const hs = (await heads(page)).map((x) => BigInt(x));
  assert.equal(xor(hs), 0n, `the computer left ${hs}`);
  assert.ok(hs.length > 0);
  assert.ok(await page.evaluate(() => document.activeElement && document.activeElement.matches('svg.coins')), 'the focus stays on the board');
  // the arrows move on from the focus: Escape clears, u undoes both moves
  await page.keyboard.press(' ');
  assert.equal(await page.$$eval('svg.coins g.coin.chosen', (gs) => gs.length), 1);
  await page.keyboard.press('Escape');
  assert.equal(await page.$$eval('svg.coins g.coin.chosen', (gs) => gs.length), 0);
  await page.keyboard.press('u');
  assert.deepEqual(await heads(page), ['1', '4', '6', '7'], 'undo takes back both moves');
});

test('coins on a phone, and coins too far along to draw', async (page) => {
  await page.setViewportSize({width: 360, height: 740});
  await newGame(page, {game: 'mock-turtles', start: '3 10 25', mode: 'two'});
  let overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px too wide)`);
  const small = await page.$$eval('svg.coins g.coin rect.hit', (rs) => rs.map((r) => r.getBoundingClientRect())
    .filter((b) => b.width < 44 || b.height < 44).length);
  assert.equal(small, 0, 'every coin is a tap target of 44 px');
  await clickCoin(page, '25');
  await page.click('#take');
  await recorded(page, '-A-> (3,10)');
  await shot(page, 'coins-phone-row');
  await newGame(page, {game: 'corners', start: '3,2 1,4 5,5', mode: 'two'});
  overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px too wide)`);
  await shot(page, 'coins-phone-grid');
  await page.setViewportSize({width: 1000, height: 900});
  await newGame(page, {game: 'mock-turtles', start: '3 1000000000000', mode: 'two'});
  assert.match(await page.textContent('#piles'), /The coins: heads at 3, 1000000000000/);
  // a wrong coin typed: the page says so before asking the server
  await page.fill('input.coinfield', '1000000000000 x');
  await page.click('#take');
  assert.match(await page.textContent('#move-error'), /type coin numbers only/);
  assert.match(await page.textContent('#piles'), /too far along to draw/);
  await page.fill('input.coinfield', '1000000000000 2');
  await shot(page, 'coins-far-text');
  await page.click('#take');
  await recorded(page, '-A-> (2,3)');
  await shot(page, 'coins-far');
});

// ------------------------------------------ the defects of issue 25

// Plays one counter from the first non-empty pile (two players).
async function takeOne(page) {
  const p = await piles(page);
  const i = p.findIndex((x) => x > 0n);
  await clickCounter(page, i, 0, Number(p[i]) - 1);
  await page.click('#take');
}

test('issue 25, defects 1, 2, 13: on a phone the chart and the move list show the latest move', async (page) => {
  await page.setViewportSize({width: 390, height: 844});
  await newGame(page, {start: '10 10 10', mode: 'two'});
  for (let k = 0; k < 30; k++) await takeOne(page);
  assert.match(await page.textContent('#status'), /Game over/);
  await page.waitForFunction(() => document.querySelectorAll('#chart .dot').length === 31);
  // defect 1: the chart scrolls to the last move and says that it scrolls
  const chart = await page.$eval('#chart svg', (svg) => {
    const box = svg.parentElement;
    const dots = svg.querySelectorAll('.dot');
    const last = dots[dots.length - 1].getBoundingClientRect();
    const r = box.getBoundingClientRect();
    const cue = [...document.querySelectorAll('#chart *')].find((e) => /scroll/i.test(e.textContent) &&
      e.getClientRects().length > 0 && e.children.length === 0);
    return {wide: box.scrollWidth > box.clientWidth, lastIn: last.left >= r.left && last.right <= r.right, cue: !!cue};
  });
  assert.ok(chart.wide, 'the chart is wider than a phone');
  assert.ok(chart.lastIn, 'the last move is in view');
  assert.ok(chart.cue, 'a visible cue says the chart scrolls');
  // defect 2: the move list shows its last entry
  const list = await page.$eval('#history', (ol) => {
    const r = ol.getBoundingClientRect();
    const last = ol.lastElementChild.getBoundingClientRect();
    return {scrolls: ol.scrollHeight > ol.clientHeight, lastIn: last.top >= r.top - 1 && last.bottom <= r.bottom + 1};
  });
  assert.ok(list.scrolls, 'the move list is longer than its box');
  assert.ok(list.lastIn, 'the last move is in view in the list');
  // defect 13: a wrapped entry keeps its number on its first line
  const nums = await page.$$eval('#history .history-item', (bs) => bs.map((b) => {
    const n = b.querySelector('.move-num');
    const lh = parseFloat(getComputedStyle(b).lineHeight) || 20;
    return {wrapped: b.getBoundingClientRect().height > 1.8 * lh,
      top: n ? n.getBoundingClientRect().top - b.getBoundingClientRect().top : null, lh};
  }));
  assert.ok(nums.some((x) => x.wrapped), 'some entry wraps on a phone');
  for (const x of nums.filter((y) => y.wrapped)) {
    assert.ok(x.top !== null && x.top < x.lh, `the number on the first line (${x.top})`);
  }
  await shot(page, 'i25-phone-chart');
});

test('issue 25, defects 6, 12, 13: viewing a position keeps the board still; the chart marks it', async (page) => {
  await newGame(page, {start: '3 4 5'});
  assert.match(await page.textContent('#board-help'), /Click a counter/);
  await clickCounter(page, 2, 0, 4);
  await page.click('#take');
  await settle(page);
  await page.waitForFunction(() => document.querySelectorAll('#chart .dot').length === 3);
  const at = () => page.$eval('svg.pile[data-comp="0"]', (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top];
  });
  const before = await at();
  await page.click('#history .history-item[data-k="1"]');
  await page.waitForSelector('#view-box:not([hidden])');
  // defect 6: the board does not move sideways (the banner above it may
  // push it down)
  const after = await at();
  assert.ok(Math.abs(after[0] - before[0]) < 1, `the piles start at x = ${before[0]}, then ${after[0]}`);
  // defect 12: no "click a counter" while an old position is viewed
  assert.equal((await page.textContent('#board-help')).trim(), '');
  // defect 13: the viewed position marked, labels of 12 px or more, axis
  // numbers and a legend
  await page.waitForSelector('#chart .dot.viewed[data-k="1"]');
  const sizes = await page.$$eval('#chart text', (ts) => ts.map((t) => parseFloat(getComputedStyle(t).fontSize)));
  assert.ok(sizes.length >= 3 && sizes.every((x) => x >= 12), `label sizes ${sizes}`);
  assert.match(await page.textContent('#chart'), /winning.*winning.*fewer moves to the end/s);
  await shot(page, 'i25-viewing');
  await page.click('#view-back');
  // defect 12: nor once the game is over
  await newGame(page, {start: '1'});
  await clickCounter(page, 0, 0, 0);
  await page.click('#take');
  await page.waitForFunction(() => /Game over/.test(document.getElementById('status').textContent));
  assert.equal((await page.textContent('#board-help')).trim(), '');
});

test('issue 25, defect 3: leaving Misère Nim unticks misère play', async (page) => {
  await page.goto(url);
  await page.waitForSelector('#game:not([disabled])');
  await page.selectOption('#game', 'misere-nim');
  assert.equal(await page.isChecked('#misere'), true);
  await page.selectOption('#game', 'wythoff');
  assert.equal(await page.isChecked('#misere'), false, 'Wythoff is not silently misère');
  // a box ticked by hand stays ticked from one game to another
  await page.check('#misere');
  await page.selectOption('#game', 'octal');
  assert.equal(await page.isChecked('#misere'), true);
});

test('issue 25, defect 7: a move value never breaks inside its word on a phone', async (page) => {
  await page.setViewportSize({width: 390, height: 844});
  await newGame(page, {game: 'octal', param: 'kayles', start: '14', mode: 'two'});
  await page.check('#show-values');
  await page.waitForSelector('#values-box .value-list li');
  const broken = await page.$$eval('#values-box .value-word', (ws) => ws
    .filter((w) => w.getClientRects().length > 1 || w.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(w).lineHeight))
    .map((w) => w.textContent));
  assert.deepEqual(broken, []);
});

test('issue 25, defect 15: an empty position asks for one', async (page) => {
  await page.goto(url + 'analyze.html');
  await page.fill('#position', '');
  await page.click('#go');
  assert.match(await page.textContent('#ask-error'), /Type a position/);
  assert.equal(await page.isVisible('#result'), false, 'nothing analysed');
});

// Grundy values from the rules (mex over the options), for heaps up to n:
// options(h) lists each option as the heaps it leaves.
function grundyTable(n, options) {
  const g = [];
  for (let x = 0; x <= n; x++) {
    const seen = new Set(options(x).map((hs) => hs.reduce((a, y) => a ^ g[y], 0)));
    let m = 0;
    while (seen.has(m)) m++;
    g.push(m);
  }
  return g;
}
// Kayles: take 1 or 2 pins side by side, leaving a and b on either side.
const kaylesOptions = (x) => {
  const out = [];
  for (let t = 1; t <= 2; t++) for (let a = 0; a + t <= x; a++) out.push([a, x - t - a]);
  return out;
};
// Grundy's game: split a heap into two unequal non-empty heaps.
const grundyOptions = (x) => {
  const out = [];
  for (let a = 1; 2 * a < x; a++) out.push([a, x - a]);
  return out;
};

test('issue 25, defect 4: Kayles is one row of pins; Grundy\'s split shows two heaps', async (page) => {
  await page.setViewportSize({width: 1280, height: 800});
  await newGame(page, {game: 'octal', param: 'kayles', start: '40', mode: 'two'});
  const rows = await page.$$eval('svg.pile[data-comp="0"] circle[data-j]', (cs) => new Set(cs.map((c) => c.getAttribute('cy'))).size);
  assert.equal(rows, 1, 'the 40 pins of Kayles in one row at 1280 px');
  await page.setViewportSize({width: 390, height: 844});
  await newGame(page, {game: 'octal', param: 'kayles', start: '40', mode: 'two'});
  const phone = await page.$eval('svg.pile[data-comp="0"]', (svg) => ({
    lines: new Set([...svg.querySelectorAll('circle[data-j]')].map((c) => c.getAttribute('cy'))).size,
    marks: svg.querySelectorAll('.cont').length}));
  assert.ok(phone.lines > 1, 'the row wraps on a phone');
  assert.equal(phone.marks, phone.lines - 1, 'each wrapped line ends with a continuation mark');
  await shot(page, 'i25-kayles-phone');
  await page.setViewportSize({width: 1000, height: 900});
  await newGame(page, {game: 'grundy', start: '9', mode: 'two'});
  await clickCounter(page, 0, 0, 4);
  const cls = await page.$$eval('svg.pile[data-comp="0"] circle[data-j]', (cs) => cs.map((c) => c.getAttribute('class')));
  assert.ok(cls.every((c) => !c.includes('chosen')), 'no counter drawn as taken by a split');
  assert.ok(cls.slice(4).every((c) => c.includes('part2')), 'the second heap drawn as a heap');
  assert.equal(await page.$$eval('svg.pile .split', (ls) => ls.length), 1, 'the split point marked');
  await shot(page, 'i25-grundy-split');
});

test('issue 25, defect 16: move values on the board for Kayles, Grundy\'s game and Wythoff\'s both piles', async (page) => {
  const value = (sel) => page.$$eval(sel, (cs) => cs.map((c) => (c.classList.contains('v-win') ? 'win' : c.classList.contains('v-lose') ? 'lose' : '')));
  // Kayles 7: pin j is green when taking it, or it and the next, leaves a
  // position of Grundy value 0
  const k = grundyTable(7, kaylesOptions);
  await newGame(page, {game: 'octal', param: 'kayles', start: '7', mode: 'two'});
  await page.check('#show-values');
  await page.waitForSelector('svg.pile circle.v-win');
  const pins = await value('svg.pile[data-comp="0"] circle[data-j]');
  const wantPins = [...Array(7).keys()].map((j) =>
    (k[j] ^ k[6 - j]) === 0 || (j + 1 < 7 && (k[j] ^ k[5 - j]) === 0) ? 'win' : 'lose');
  assert.deepEqual(pins, wantPins);
  // Grundy's game 9: counter j (j >= 1) splits into j and 9 - j
  const g = grundyTable(9, grundyOptions);
  await newGame(page, {game: 'grundy', start: '9', mode: 'two'});
  await page.check('#show-values');
  await page.waitForSelector('svg.pile circle.v-win, svg.pile circle.v-lose');
  const splits = await value('svg.pile[data-comp="0"] circle[data-j]');
  const wantSplits = [...Array(9).keys()].map((j) => (j === 0 || 2 * j === 9 ? ''
    : (g[j] ^ g[9 - j]) === 0 ? 'win' : 'lose'));
  assert.deepEqual(splits, wantSplits);
  // Wythoff (4,6): with 3 chosen to stay in the first pile, the second
  // pile's counter 5 is the move to (3,5), a safe pair: green
  await newGame(page, {game: 'wythoff', start: '4 6', mode: 'two'});
  await page.check('#show-values');
  await page.waitForSelector('svg.pile circle.v-lose');
  await clickCounter(page, 0, 0, 3);
  await page.waitForSelector('svg.pile[data-comp="0"][data-row="1"] circle[data-j="5"]');
  const second = await value('svg.pile[data-comp="0"][data-row="1"] circle[data-j]');
  // (3,5) is a safe pair; (3,0) to (3,4) take unequal numbers from the
  // two piles: no move, no colour
  assert.deepEqual(second, ['', '', '', '', '', 'win'], 'taking 1 from both piles wins');
  await shot(page, 'i25-wythoff-values');
});

test('issue 25, defects 5, 8: the move values sorted, short on a phone, and why some lack "in N"', async (page) => {
  await newGame(page, {game: 'moore', param: '2', start: '3 5 6 2', mode: 'two'});
  await page.check('#show-values');
  await page.waitForSelector('#values-box .value-list li');
  const items = await page.$$eval('#values-box .value-list li', (lis) => lis.map((li) => ({
    win: li.classList.contains('v-win'), text: li.textContent})));
  const head = await page.textContent('#values-box p');  // the first line
  const wins = Number(/(\d+) of (\d+) moves? win/.exec(head)[1]);
  assert.ok(wins >= 1);
  assert.deepEqual(items.slice(0, wins).map((x) => x.win), Array(wins).fill(true), 'the winning moves first');
  assert.ok(items.slice(wins).every((x) => !x.win));
  // the quickest win first
  const inN = items.slice(0, wins).map((x) => Number((/in (\d+)/.exec(x.text) || [0, Infinity])[1]));
  assert.deepEqual(inN, inN.slice().sort((a, b) => a - b));
  // Kayles 40 on a phone: the page stays short, and the list says why
  // its moves have no "in N"
  await page.setViewportSize({width: 390, height: 844});
  await newGame(page, {game: 'octal', param: 'kayles', start: '40', mode: 'two'});
  await page.check('#show-values');
  await page.waitForSelector('#values-box .value-list li');
  const tall = await page.$eval('#values-box', (b) => b.getBoundingClientRect().height);
  assert.ok(tall < 1000, `the move values are ${tall} px tall`);
  const words = await page.$$eval('#values-box .value-word', (ws) => ws.map((w) => w.textContent));
  assert.ok(words.some((w) => !/in \d+/.test(w)), 'some move has no "in N"');
  assert.match(await page.textContent('#values-box'), /moves to the end.*(time|budget)/s);
  await shot(page, 'i25-values-phone');
});

test('issue 25, defects 9, 11: big piles drawn, plain words, no jargon', async (page) => {
  // defect 9: a pile of 80 is drawn as counters; a pile of 10^100 says in
  // words why its moves have no values
  await newGame(page, {start: '80 3', mode: 'two'});
  assert.equal(await page.$$eval('svg.pile[data-comp="0"] circle[data-j]', (cs) => cs.length), 80);
  await newGame(page, {start: '1' + '0'.repeat(100) + ' 3', mode: 'two'});
  await page.check('#show-values');
  await page.waitForSelector('#values-box p.note');
  const why = await page.textContent('#values-box');
  assert.doesNotMatch(why, /max_search|limit\)/);
  assert.match(why, /too many moves/);
  // defect 11: the hint without component numbers or nested reasons
  await newGame(page, {game: 'octal', param: 'kayles', start: '30 31', mode: 'two'});
  await page.click('#hint');
  await page.waitForSelector('#hint-box .play-move');
  const hintText = await page.textContent('#hint-box .panel-outcome');
  assert.doesNotMatch(hintText, /component \d|\u2192|\(the [a-z ]+ budget\)\)/);
  // the parameters are named in words
  if (await page.isVisible('#setup-open')) await page.click('#setup-open');
  const labels = [];
  for (const v of await page.$$eval('#game option', (os) => os.map((o) => o.value))) {
    await page.selectOption('#game', v);
    if (await page.isVisible('#param-row')) labels.push(await page.textContent('#param-label'));
  }
  assert.ok(labels.length >= 4);
  for (const l of labels) {
    assert.match(l, /^[A-Z]?[a-z]+(,? [a-z-]+)+$/, `the label "${l}" is words`);
  }
});

test('issue 25, defect 10: the game in the address: reload, a shared link, the last game; undo, redo, restart', async (page) => {
  await newGame(page, {start: '3 4 5'});
  await clickCounter(page, 2, 0, 4); // 3 4 4
  await page.click('#take');
  await settle(page);
  const lines = await recordLines(page);
  const moves = lines.filter((l) => l.startsWith('-'));
  assert.equal(moves.length, 2);
  const hash = await page.evaluate(() => location.hash);
  const q = new URLSearchParams(hash.slice(1));
  assert.equal(q.get('g'), 'nim');
  assert.equal(q.get('p'), '3 4 5');
  assert.equal(q.get('moves').split('_').length, 2);
  assert.equal(q.get('moves').split('_')[0], '3-4');
  // a reload keeps the game
  await page.reload();
  await page.waitForFunction((n) => document.querySelectorAll('#history li').length === n, 3);
  assert.deepEqual((await recordLines(page)).filter((l) => l.startsWith('-') || l.startsWith('(')),
    lines.filter((l) => l.startsWith('-') || l.startsWith('(')));
  assert.match(await page.textContent('#status'), /Your move/);
  // a link opened elsewhere (no storage) shows the same game
  const other = await newContext(page.context().browser());
  const p2 = await other.newPage();
  await p2.goto(url + hash);
  await p2.waitForFunction(() => document.querySelectorAll('#history li').length === 3);
  assert.deepEqual(await piles(p2), await piles(page));
  // the issue's example: Kayles 40, pins 4 taken: 3 and 36 left
  await p2.goto(url + '#g=kayles&p=40&moves=1-3.36&vs=two');
  await p2.waitForFunction(() => document.querySelectorAll('#history li').length === 2);
  assert.deepEqual(await piles(p2), [3n, 36n]);
  assert.match(await p2.textContent('#status'), /Player B to move/);
  await other.close();
  // the address of a plain visit: the last game, from storage
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 3);
  const before = await piles(page);
  // undo takes back your move and the reply; redo plays them again;
  // restart goes back to the start
  await page.click('#undo');
  assert.deepEqual(await piles(page), [3n, 4n, 5n]);
  assert.equal(await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('moves')), null);
  await page.click('#redo');
  assert.deepEqual(await piles(page), before);
  assert.equal(await page.isEnabled('#redo'), false);
  await page.click('#restart');
  assert.deepEqual(await piles(page), [3n, 4n, 5n]);
  assert.equal(await page.$$eval('#history li', (lis) => lis.length), 1);
});

test('issue 25, defect 14: at 1280x800 the setup folds; board, hint and move values fit the screen', async (page) => {
  await page.setViewportSize({width: 1280, height: 800});
  await newGame(page, {start: '3 4 5'});
  assert.equal(await page.isVisible('#setup-form'), false, 'the form folds during the game');
  assert.match(await page.textContent('#setup'), /Nim 3 4 5 \u00b7 you vs perfect/);
  await page.check('#show-values');
  await page.waitForSelector('#values-box .value-list li');
  await page.click('#hint');
  await page.waitForSelector('#hint-box .play-move');
  await page.evaluate(() => window.scrollTo(0, 0));
  const parts = await page.evaluate(() => ['#piles', '#hint-box .moves li', '#values-box .value-list li', '#take']
    .map((q) => [q, document.querySelector(q).getBoundingClientRect().bottom]));
  for (const [q, bottom] of parts) assert.ok(bottom <= 800, `${q} ends at ${bottom} px, below the screen`);
  await shot(page, 'i25-desktop-1280');
  // New game unfolds the form; Back to the game folds it again
  await page.click('#setup-open');
  assert.ok(await page.isVisible('#setup-form'));
  await page.click('#setup-close');
  assert.equal(await page.isVisible('#setup-form'), false);
});

// The text of the page whose contrast with its background is under
// WCAG AA's 4.5:1 (inactive controls, which WCAG exempts, left out).
function lowContrast(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
    };
    const lum = ({r, g, b}) => {
      const f = (v) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const bgOf = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0.5) return c;
      }
      return {r: 255, g: 255, b: 255};
    };
    const bad = [];
    const seen = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || seen.has(el) || el.closest('svg, option')) continue;
      seen.add(el);
      if (!el.getClientRects().length || el.closest(':disabled, .skip')) continue;
      const fg = parse(getComputedStyle(el).color);
      const a = lum(fg);
      const b = lum(bgOf(el));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 4.5) bad.push(`${el.tagName.toLowerCase()}.${el.className} "${n.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
    }
    return bad;
  });
}

test('issue 25: the dark theme follows the system, has a switch, and keeps AA contrast', async (page) => {
  await page.emulateMedia({colorScheme: 'dark'});
  await newGame(page, {start: '3 4 5'});
  await page.check('#show-values');
  await page.waitForSelector('#values-box .value-list li');
  await page.click('#hint');
  await page.waitForSelector('#hint-box .play-move');
  const paper = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  assert.match(await paper(), /rgb\((\d|[1-4]\d), (\d|[1-4]\d), (\d|[1-4]\d)\)/, 'a dark page');
  assert.deepEqual(await lowContrast(page), [], 'dark: every text at 4.5:1 or more');
  await shot(page, 'i25-dark');
  // the switch: light, kept on reload
  await page.click('#theme');
  assert.match(await paper(), /rgb\(2\d\d, 2\d\d, 2\d\d\)/, 'a light page');
  assert.deepEqual(await lowContrast(page), [], 'light: every text at 4.5:1 or more');
  await page.reload();
  await page.waitForSelector('#piles .comp');
  assert.match(await paper(), /rgb\(2\d\d, 2\d\d, 2\d\d\)/, 'the choice is kept');
  await page.click('#theme');
  // the analysis page in the dark theme
  await page.goto(url + 'analyze.html?p=3+4+5');
  await page.waitForSelector('#outcome .outcome');
  assert.match(await paper(), /rgb\((\d|[1-4]\d), (\d|[1-4]\d), (\d|[1-4]\d)\)/);
  assert.deepEqual(await lowContrast(page), [], 'the analysis page, dark');
});

test('issue 25, defect 12: how to play each game, beside the board, open on first play', async (page) => {
  await newGame(page, {game: 'octal', param: 'kayles', start: '9', mode: 'two'});
  assert.ok(await page.isVisible('#board #howto'), 'a "How to play" beside the board');
  assert.equal(await page.$eval('#howto', (d) => d.open), true, 'open the first time');
  assert.match(await page.textContent('#howto'), /side by side.*Keyboard/s);
  await newGame(page, {game: 'octal', param: 'kayles', start: '9', mode: 'two'});
  assert.equal(await page.$eval('#howto', (d) => d.open), false, 'folded behind its "?" afterwards');
  await newGame(page, {game: 'grundy', start: '9', mode: 'two'});
  assert.equal(await page.$eval('#howto', (d) => d.open), true);
  assert.match(await page.textContent('#howto'), /split/);
  await newGame(page, {game: 'turtles', start: '3 5', mode: 'two'});
  assert.match(await page.textContent('#howto'), /coins/);
});

test('issue 25: each move judged in the move list, and a scorecard at the end', async (page) => {
  // 3 4 5 is won for the player to move; 3 4 4 throws the win away (its
  // nim-sum is 3, not 0: the computer, perfect, then keeps the win)
  await newGame(page, {start: '3 4 5'});
  await clickCounter(page, 2, 0, 4);
  await page.click('#take');
  for (;;) {
    const status = await settle(page);
    if (status.startsWith('Game over')) break;
    const p = await piles(page);
    const i = p.findIndex((x) => x > 0n);
    await clickCounter(page, i, 0, Number(p[i]) - 1);
    await page.click('#take');
  }
  await page.waitForSelector('#scorecard:not([hidden]) table');
  await page.waitForSelector('#history li:nth-child(2) .verdict-tag');
  assert.match(await page.textContent('#history li:nth-child(2) .verdict-tag'), /threw the win away/);
  const cell = (p, v) => page.textContent(`#scorecard tr[data-player="${p}"] td[data-verdict="${v}"]`);
  assert.equal(await cell('A', 'threw'), '1');
  assert.equal(await cell('B', 'threw'), '0', 'the perfect computer never throws a win');
  const moves = (await recordLines(page)).filter((l) => l.startsWith('-B->')).length;
  const b = ['best', 'kept', 'threw', 'lost'].map((v) => cell('B', v));
  assert.equal((await Promise.all(b)).reduce((x, y) => x + Number(y), 0), moves, 'every computer move judged');
  await shot(page, 'i25-scorecard');
});

test('issue 25: Wythoff\'s game as a queen on a grid (Corner the Queen)', async (page) => {
  await newGame(page, {game: 'wythoff', start: '4 6', mode: 'two'});
  await page.click('#queen-view');
  await page.waitForSelector('svg.queen');
  // from (4,6): 4 squares to the left, 6 down, 4 on the diagonal
  assert.equal(await page.$$eval('svg.queen rect.reach', (rs) => rs.length), 14);
  await page.check('#show-values');
  await page.waitForSelector('svg.queen rect.v-win');
  // the one winning move goes to the safe pair (3,5)
  const wins = await page.$$eval('svg.queen rect.v-win', (rs) => rs.map((r) => [r.getAttribute('data-x'), r.getAttribute('data-y')]));
  assert.deepEqual(wins, [['3', '5']]);
  await shot(page, 'i25-queen');
  await page.click('svg.queen rect[data-x="3"][data-y="5"]');
  await page.click('#take');
  await recorded(page, '-A-> (3,5)');
  // the keyboard: two squares left and Enter, (3,5) to (1,5)
  await page.focus('svg.queen');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await recorded(page, '-B-> (1,5)');
  // back to the two piles
  await page.click('#queen-view');
  assert.deepEqual(await piles(page), [1n, 5n]);
});

test('issue 25: the value chart shows the moves not played faintly', async (page) => {
  // 3 4 5: one move of 12 wins (to 1 4 5); 3 4 4 throws the win away, and
  // from 3 4 4 the computer's one winning move is to 0 4 4
  await newGame(page, {start: '3 4 5'});
  await clickCounter(page, 2, 0, 4);
  await page.click('#take');
  await settle(page);
  await page.waitForFunction(() => document.querySelectorAll('#chart .dot').length === 3);
  // after move 1 (B to move): the winning move would have left B lost (A
  // winning, above), the others B winning (below); after move 2 the
  // other way round
  for (const [k, sides] of [[1, [1, -1]], [2, [-1, 1]]]) {
    for (const side of sides) {
      await page.waitForSelector(`#chart .alt[data-k="${k}"][data-side="${side}"]`, {state: 'attached'});
    }
  }
  assert.equal(await page.$$eval('#chart .alt[data-k="0"]', (a) => a.length), 0, 'no move leads to the start');
  assert.equal(await page.$$eval('#chart .dot', (d) => d.length), 3, 'the moves played stay as they were');
  const faint = await page.$eval('#chart .alt', (c) => Number(getComputedStyle(c).opacity));
  assert.ok(faint < 0.6, `faint: opacity ${faint}`);
  assert.match(await page.textContent('#chart'), /faint dot is a move not played/);
  await shot(page, 'chart-alternatives');
});

test('issue 25: how to play each game with a small drawing of a move', async (page) => {
  // every family of the select, in words and a drawing; the drawings
  // that show a count show the one the rules allow
  const fams = (await (await fetch(url + 'v1/games')).json()).games.map((f) => f.name);
  const starts = {wythoff: '3 5', moore: '3 4 5', corners: '1,1 2,2', tartan: '1,1 2,2'};
  const seen = {};
  for (const f of fams) {
    await newGame(page, {game: f, start: starts[f] || '5 6', mode: 'two'});
    await page.$eval('#howto', (d) => { d.open = true; });
    const fig = await page.$eval('#howto figure.howto-fig', (el) => ({
      kind: el.querySelector('svg.howto-drawing').getAttribute('data-fig'),
      gone: el.querySelectorAll('.fig-gone').length,
      caption: el.querySelector('figcaption').textContent}));
    assert.ok(fig.caption.length > 20, `${f}: a caption (${fig.caption})`);
    seen[f] = fig;
  }
  assert.deepEqual(Object.fromEntries(Object.entries(seen).map(([f, x]) => [f, x.kind])), {
    nim: 'nim', wythoff: 'queen', sub: 'takes', octal: 'range', grundy: 'cut', tb: 'take', moore: 'many',
    turtles: 'row', 'mock-turtles': 'row', ruler: 'row', twins: 'row', corners: 'grid', tartan: 'grid'});
  assert.equal(seen.nim.gone, 2, 'Nim: two counters taken');
  // sub:1-3 from a heap of 6: three rows, taking 1, 2 and 3
  assert.equal(seen.sub.gone, 1 + 2 + 3);
  assert.match(seen.sub.caption, /1, 2 or 3/);
  // Kayles knocks down two pins side by side; Dawson's Kayles exactly two
  assert.equal(seen.octal.gone, 2);
  assert.match(seen.octal.caption, /1 or 2 pins/);
  await newGame(page, {game: 'octal', param: 'dawsons-kayles', start: '9', mode: 'two'});
  assert.match(await page.textContent('#howto figcaption'), /Knock down 2 pins/);
  await newGame(page, {game: 'sub', param: '2,5', start: '9', mode: 'two'});
  assert.match(await page.textContent('#howto figcaption'), /: 2 or 5\./);
  // the queen's caption follows the ending
  await newGame(page, {game: 'wythoff', start: '3 5', mode: 'two', misere: true});
  assert.match(await page.textContent('#howto figcaption'), /In misère play whoever puts her in the corner loses/);
  // a sum: one drawing a game
  await newGame(page, {game: 'sum', start: 'kayles 5 + nim 3 4 + grundy 7', mode: 'two'});
  assert.deepEqual(await page.$$eval('#howto svg.howto-drawing', (ss) => ss.map((s) => s.getAttribute('data-fig'))), ['range', 'nim', 'cut']);
  await page.$eval('#howto', (d) => { d.open = true; });
  await shot(page, 'howto-drawings-sum');
});

test("issue 25: the queen's grid shows every safe square with the values on", async (page) => {
  // the safe pairs (floor(n phi), floor(n phi^2)) and their mirrors
  const phi = (1 + Math.sqrt(5)) / 2;
  const pairs = (cols, rows) => {
    const out = [];
    for (let n = 0; Math.floor(n * phi) <= Math.max(cols, rows); n++) {
      const a = Math.floor(n * phi);
      const b = Math.floor(n * phi * phi);
      for (const [x, y] of [[a, b], [b, a]]) if (x <= cols && y <= rows && !out.includes(`${x},${y}`)) out.push(`${x},${y}`);
    }
    return out.sort();
  };
  const marked = () => page.$$eval('svg.queen rect.p-square', (rs) => rs.map((r) => `${r.dataset.x},${r.dataset.y}`).sort());
  await newGame(page, {game: 'wythoff', start: '9 12', mode: 'two'});
  await page.click('#queen-view');
  assert.deepEqual(await marked(), [], 'not before the values are on');
  await page.check('#show-values');
  await page.waitForSelector('svg.queen rect.v-win');
  const p = await marked();
  assert.deepEqual(p, pairs(9, 12));
  assert.deepEqual(p, ['0,0', '1,2', '2,1', '3,5', '4,7', '5,3', '6,10', '7,4']);
  // (1,2), (2,1) and (0,0) are out of the queen's reach from (9,12), and
  // marked; every reachable safe square is a winning move, and only those
  const reach = await page.$$eval('svg.queen rect.reach', (rs) => rs.map((r) => `${r.dataset.x},${r.dataset.y}`));
  assert.ok(!reach.includes('1,2') && !reach.includes('0,0'));
  const wins = await page.$$eval('svg.queen rect.v-win', (rs) => rs.map((r) => `${r.dataset.x},${r.dataset.y}`).sort());
  assert.deepEqual(wins, p.filter((s) => reach.includes(s)));
  assert.equal(await page.$$eval('svg.queen text.p-mark', (ts) => ts.length), p.length);
  await shot(page, 'queen-safe-squares');
  // misère play: (0,1), (1,0) and (2,2) take the place of (0,0), (1,2)
  // and (2,1); the rest are the same (Wythoff's misère game)
  await newGame(page, {game: 'wythoff', start: '9 12', mode: 'two', misere: true});
  if (await page.getAttribute('#queen-view', 'aria-pressed') !== 'true') await page.click('#queen-view');
  await page.check('#show-values');
  await page.waitForSelector('svg.queen rect.p-square');
  assert.deepEqual(await marked(), ['0,1', '1,0', '2,2', '3,5', '4,7', '5,3', '6,10', '7,4']);
});

test('issue 25: a sum drawn as its parts side by side, each labelled by its game', async (page) => {
  for (const [w, hgt] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({width: w, height: hgt});
    await newGame(page, {game: 'sum', start: 'kayles 5 + nim 1 2 + wythoff 3 5 + grundy 7 + turtles 1 4', mode: 'two'});
    const parts = await page.$$eval('#piles .comp', (cs) => cs.map((c) => {
      const r = c.getBoundingClientRect();
      return {title: c.querySelector('.comp-title').textContent, top: Math.round(r.top), left: r.left, right: r.right};
    }));
    assert.deepEqual(parts.map((p) => p.title), ['Kayles', 'Nim', 'Nim', "Wythoff's game", "Grundy's game", 'Turning Turtles']);
    const box = await page.$eval('#piles', (b) => b.getBoundingClientRect().right);
    assert.ok(parts.every((p) => p.right <= box + 1), `every part inside the board (${w} px)`);
    const rows = new Set(parts.map((p) => p.top)).size;
    if (w === 1280) assert.ok(rows <= 2, `side by side at 1280 px: ${rows} rows of parts`);
    else assert.equal(parts[1].top, parts[2].top, 'the two small piles of Nim side by side on a phone');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, 'no sideways scrolling');
    // still played by clicks: a pin of Kayles
    await clickCounter(page, 0, 0, 4);
    await page.click('#take');
    await recorded(page, '-A-> (octal:0.77 4 + nim 1 2 + wythoff 3 5 + grundy 7 + turtles 1 4)');
    await shot(page, `sum-${w}`);
  }
});

// One move of the player to move, by clicking the board only: the first
// of the board's moves (tried in order) that the rules accept.  Returns
// false when none is found.
async function clickSomeMove(page) {
  const before = (await recordLines(page)).length;
  const played = () => page.waitForFunction((n) => document.getElementById('record').textContent.trim().split('\n').length > n ||
    document.getElementById('move-error').textContent !== '', before, {timeout: 8000})
    .then(async () => (await recordLines(page)).length > before);
  const tryClicks = async (sels) => {
    for (const s of sels) await page.click(s);
    if (await page.isDisabled('#take')) return false;
    await page.click('#take');
    if (await played()) return true;
    if (!(await page.isDisabled('#clear-sel'))) await page.click('#clear-sel');
    return false;
  };
  // coins: the coins of a move of the values list, outlined on the board
  // while the pointer is on it, then clicked on the board
  if (await page.$('svg.coins')) {
    if (!(await page.isChecked('#show-values'))) await page.check('#show-values');
    await page.waitForSelector('#values-box .value-list li');
    await page.hover('#values-box .value-list li:first-child .value-word');
    const keys = await page.$$eval('svg.coins g.coin.focus-win', (gs) => gs.map((g) => [g.closest('svg').dataset.comp, g.dataset.coin]));
    await page.mouse.move(0, 0);
    return tryClicks(keys.map(([i, k]) => `svg.coins[data-comp="${i}"] g.coin[data-coin="${k}"]`));
  }
  const queen = await page.$$eval('svg.queen rect.reach', (rs) => rs.map((r) => [r.closest('svg').dataset.comp, r.dataset.x, r.dataset.y]));
  for (const [i, x, y] of queen.slice(0, 3)) {
    if (await tryClicks([`svg.queen[data-comp="${i}"] rect[data-x="${x}"][data-y="${y}"]`])) return true;
  }
  const rows = await page.$$eval('svg.pile', (ss) => ss.map((s) => [s.dataset.comp, s.dataset.row,
    s.querySelectorAll('circle[data-j]').length, s.classList.contains('pins')]));
  for (const [i, r, n, pins] of rows) {
    const c = (j) => `svg.pile[data-comp="${i}"][data-row="${r}"] circle[data-j="${j}"]`;
    // take the last counter; pins: one or two side by side, from the end
    const tries = [];
    for (let j = n - 1; j >= 0 && tries.length < 8; j--) {
      tries.push([c(j)]);
      if (pins && j + 1 < n) tries.push([c(j), c(j + 1)]);
    }
    for (const t of tries) if (await tryClicks(t)) return true;
  }
  return false;
}

// Plays a whole game against the computer by clicks on the board alone
// (no typing), to the end; returns the number of the player's moves.
async function playToTheEnd(page, what) {
  let mine = 0;
  for (let k = 0; k < 40; k++) {
    const status = await settle(page);
    if (status.startsWith('Game over')) {
      assert.ok(await page.isVisible('#over-box'), `${what}: the end offers another game`);
      assert.match(status, /wins|win/, `${what}: a result`);
      return mine;
    }
    if (await clickSomeMove(page)) {
      mine++;
      continue;
    }
    // no move on the board: a game whose end the server decides (Moore's
    // Nim, coins) says so when it answers
    await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Game over'), null, {timeout: 5000})
      .catch(() => assert.fail(`${what}: no move found by clicking, and the game not over`));
  }
  assert.fail(`${what}: no end after 40 moves`);
}

// Every choice of the Game select, with a small start.
const FULL_GAMES = [
  ['nim', '2 3'], ['misere-nim', '2 2'], ['wythoff', '3 4'], ['sub', '5 3'],
  ['octal', '5 2'], ['octal', '7', 'dawsons-kayles'], ['grundy', '7'], ['tb', '4 3'], ['moore', '2 3 1'],
  ['turtles', '2 5'], ['mock-turtles', '1 4'], ['ruler', '2 5'], ['twins', '1 4'],
  ['corners', '1,1 2,2'], ['tartan', '1,1 2,2'], ['sum', 'kayles 3 + nim 2 + grundy 4'],
];

// Opens the game of a shared link (#g=GAME&p=START&vs=perfect): a game
// started with no typing at all.
async function openLink(page, spec, start, misere) {
  const q = new URLSearchParams();
  q.set('g', spec);
  q.set('p', start);
  if (misere) q.set('m', '1');
  q.set('vs', 'perfect');
  await page.goto('about:blank');
  await page.goto(url + '#' + q.toString());
  await page.waitForSelector('#piles .comp');
}

// On a desktop each game is chosen in the setup form (its start typed
// there, small so that the test stays short); on a phone it is opened from
// its link, with no typing at all.  Every move is a click on the board.
for (const [w, hgt, name] of [[1280, 800, 'desktop'], [390, 844, 'phone']]) {
  test(`issue 25: a full game of every family played by clicks only (${name}, ${w}x${hgt})`, async (page) => {
    await page.setViewportSize({width: w, height: hgt});
    const games = (await (await fetch(url + 'v1/games')).json()).games;
    const offered = games.map((f) => f.name);
    // a link names the game in full: the family's example where the form
    // would fill in its parameter
    const specOf = (game, param) => param || (game === 'misere-nim' ? 'nim' : game === 'sum' ? 'sum'
      : games.find((f) => f.name === game).example);
    const covered = new Set(FULL_GAMES.map(([g]) => g));
    assert.deepEqual(offered.filter((f) => !covered.has(f)), [], 'every family of the page played');
    for (const [game, start, param] of FULL_GAMES) {
      if (name === 'phone') await openLink(page, specOf(game, param), start, game === 'misere-nim');
      else await newGame(page, {game, start, param, level: 'perfect'});
      if (game === 'misere-nim') assert.match(await page.textContent('#record'), /rules: misère/);
      // Wythoff's game on a phone as the queen on her grid
      if (game === 'wythoff' && name === 'phone') await page.click('#queen-view');
      const moves = await playToTheEnd(page, `${game} ${start}`);
      assert.ok(moves >= 1 || (await recordLines(page)).some((l) => l.startsWith('-B->')), `${game}: moves were made`);
      await shot(page, `full-${name}-${param || game}`);
    }
  });
}

test('issue 21, item 5: misère heap games explain the misère quotient in the hint, and colour the moves', async (page) => {
  for (const [game, param, start] of [['octal', 'kayles', '5 3 2'], ['grundy', undefined, '7 5'], ['sub', '1-3', '7 5'], ['octal', 'dawsons-kayles', '9 4']]) {
    await newGame(page, {game, param, start, misere: true, mode: 'two'});
    await page.click('#hint');
    await page.waitForSelector('#hint-box h3');
    const why = await page.$('#hint-box details');
    assert.ok(why, `${game} ${param || ''}: a "Why"`);
    await page.click('#hint-box details summary');
    const text = await page.textContent('#hint-box details pre');
    assert.match(text, /misère quotient Q/, `${game}: the quotient`);
    assert.match(text, /Each heap is an element of Q: heap \d+ = /, `${game}: each heap's element`);
    assert.match(text, /P-portion/);
    await page.check('#show-values');
    await page.waitForSelector('#values-box .value-list li');
    const cls = await page.$$eval('#values-box .value-list li', (ls) => ls.map((l) => l.className));
    assert.ok(cls.every((c) => c === 'v-win' || c === 'v-lose'), `${game}: every move valued (${cls})`);
    if (game === 'octal' && param === 'kayles') {
      // misère Kayles 5 3 2 (heaps c, ab and b of Q, product ab^2c): one
      // winning move, 5 to 4
      assert.equal(cls.filter((c) => c === 'v-win').length, 1);
      assert.match(await page.textContent('#hint-box'), /take 1 from heap 1/);
      assert.match(text, /heap 5 = c; heap 3 = ab; heap 2 = b; the product is x = ab\^2c/);
      await shot(page, 'misere-kayles-why');
    }
  }
});

// The hint's "Why" of misère Kayles and Dawson's Kayles draws the misère
// quotient, against an independent path: the CLI's `analyze --misere
// --explain --json` of the same position, run here (BOUTON_BIN, which
// run.sh sets), gives the quotient's bound, order and P, each heap's
// element, their product and the element each winning move leaves.  The
// server learns a game's quotient to the largest heap asked so far: the
// tests before this one ask misère Kayles of heaps of at most 7, and
// Dawson's Kayles of at most 9, so its quotient is the CLI's.
test('issue 21, item 5: the Why of misère Kayles draws the quotient (elements, product, P), as the CLI computes it', async (page) => {
  const bin = process.env.BOUTON_BIN;
  assert.ok(bin, 'BOUTON_BIN: the program, to compare with its CLI');
  for (const [param, start] of [['kayles', '7 5 4'], ['dawsons-kayles', '9 6 4']]) {
    const cli = JSON.parse(execFileSync(bin, ['analyze', '--misere', '--explain', '--json', '--no-store',
      `${param} ${start}`], {encoding: 'utf8'}));
    const q = cli.quotient;
    assert.ok(q, `${param} ${start}: the CLI answers through the quotient`);
    await newGame(page, {game: 'octal', param, start, misere: true, mode: 'two'});
    await page.click('#hint');
    await page.waitForSelector('#hint-box details.why');
    await page.click('#hint-box details.why > summary');
    const panel = '#hint-box details.why .panel-quotient';
    const intro = await page.textContent(`${panel} > p`);
    assert.match(intro, new RegExp(`misère quotient Q of ${q.game.replace('.', '\\.')} \\(Plambeck and Siegel\\)`));
    const bound = `${q.proved ? 'the heaps' : 'every heap'} of at most ${q.upto} counters`;
    assert.ok(intro.includes(bound), `${param}: the bound, ${bound}`);
    assert.ok(intro.includes(`a monoid of ${q.order} elements; the ${q.p_portion} elements of its P-portion`), `${param}: |Q|, |P|`);
    const words = (sel) => page.$$eval(sel, (ws) => ws.map((w) => w.getAttribute('data-word')));
    assert.deepEqual(await words(`${panel} .q-p .q-word`), q.p, `${param}: P`);
    const rows = await page.$$eval(`${panel} .q-heaps tbody tr`, (trs) => trs.map((tr) =>
      [tr.children[1].textContent, tr.querySelector('.q-word').getAttribute('data-word')]));
    assert.deepEqual(rows, cli.components.map((c) => [c.position[0], c.element]), `${param}: each heap's element`);
    assert.deepEqual(await words(`${panel} .q-product .q-word`), [q.element], `${param}: the product`);
    assert.match(await page.textContent(`${panel} .q-product`), q.in_p ? /which lies in P/ : /which is not in P/);
    // the exponents raised: b^2 drawn as b with a superscript 2
    if (q.p.includes('b^2')) assert.equal(await page.textContent(`${panel} .q-p .q-word[data-word="b^2"] sup`), '2');
    // the server's words, folded below the drawing, are the CLI's
    assert.equal(await page.textContent('#hint-box details.why details pre'), cli.explanation);
    // each winning move with the element it leaves, in P
    assert.deepEqual(await words('#hint-box .moves li .move-element .q-word'),
      cli.winning_moves.map((m) => m.element), `${param}: the winning moves' elements`);
    assert.ok(cli.winning_moves.every((m) => q.p.includes(m.element)));
    // the move values: every move with the element it leaves, in P
    // exactly when the move wins
    await page.check('#show-values');
    await page.waitForSelector('#values-box .value-list li');
    if (await page.isVisible('#values-box .values-all')) await page.click('#values-box .values-all');
    const values = await page.$$eval('#values-box .value-list li', (lis) => lis.map((li) => {
      const w = li.querySelector('.value-element .q-word');
      return {win: li.className === 'v-win', word: w && w.getAttribute('data-word')};
    }));
    assert.ok(values.length > cli.winning_moves.length, `${param}: every move listed`);
    for (const v of values) {
      if (v.word === null) continue; // a move to the empty sum names no element
      assert.equal(q.p.includes(v.word), v.win, `${param}: ${v.word} in P exactly when the move wins`);
    }
    assert.deepEqual(values.filter((v) => v.win).map((v) => v.word).sort(),
      cli.winning_moves.map((m) => m.element).sort(), `${param}: the winning moves' elements in the values`);
    await shot(page, `misere-${param}-quotient-why`);
  }
});

// Screenshots of every board at a desktop's 1280x800 and a phone's
// 390x844, for a person to look at: ARTIFACT-DIR/screens/, with an
// index.html that shows them side by side.  Each board is checked to be
// there before its picture is taken.
const SCREENS = [
  ['nim-values', {start: '3 4 5'}, async (page) => {
    await page.check('#show-values');
    await page.waitForSelector('svg.pile .counter.v-win');
  }],
  ['kayles-pins', {game: 'octal', param: 'kayles', start: '23 6', mode: 'two'}, async (page) => {
    await page.check('#show-values');
    await page.waitForSelector('svg.pile.pins .counter.v-win');
    await clickCounter(page, 0, 0, 3);
  }],
  ['grundy-split', {game: 'grundy', start: '11', mode: 'two'}, async (page) => {
    await clickCounter(page, 0, 0, 4);
    await page.waitForSelector('svg.pile .split', {state: 'attached'});
  }],
  ['wythoff-piles', {game: 'wythoff', start: '7 11', mode: 'two'}, async (page) => {
    await page.waitForSelector('.comp.two-piles');
  }],
  ['queen-values-golden', {game: 'wythoff', start: '9 12', mode: 'two'}, async (page) => {
    await page.click('#queen-view');
    await page.click('#golden');
    await page.check('#show-values');
    await page.waitForSelector('svg.queen rect.v-win');
  }],
  ['subtraction', {game: 'sub', param: '1-3', start: '9 7', mode: 'two'}, async () => {}],
  ['moore', {game: 'moore', start: '3 5 6 2', mode: 'two'}, async (page) => {
    await clickCounter(page, 0, 0, 2);
    await clickCounter(page, 0, 2, 4);
  }],
  ['sum', {game: 'sum', start: 'kayles 5 + nim 3 4 + wythoff 3 5 + grundy 7 + turtles 1 4', mode: 'two'}, async (page) => {
    await page.waitForSelector('#piles.sum .comp-title');
  }],
  ['coins-row', {game: 'mock-turtles', start: '1 4 7', mode: 'two'}, async (page) => {
    await page.waitForSelector('svg.coins.row');
  }],
  ['coins-grid', {game: 'corners', start: '1,1 3,2 2,4', mode: 'two'}, async (page) => {
    await page.waitForSelector('svg.coins.grid');
  }],
  ['howto-drawings', {game: 'sum', start: 'kayles 5 + nim 3 + grundy 7 + wythoff 3 5 + moore:2 2 3', mode: 'two'}, async (page) => {
    await page.$eval('#howto', (d) => { d.open = true; });
    await page.waitForSelector('#howto svg.howto-drawing');
  }],
  ['misere-kayles-why', {game: 'octal', param: 'kayles', start: '5 3 2', misere: true, mode: 'two'}, async (page) => {
    await page.click('#hint');
    await page.click('#hint-box details summary');
    // the quotient drawn; the server's text folded below it
    await page.waitForSelector('#hint-box .panel-quotient');
  }],
];

test('screenshots of every board at 1280x800 and 390x844, for a person to look at', async (page) => {
  const dir = path.join(artifacts, 'screens');
  mkdirSync(dir, {recursive: true});
  const rows = [];
  for (const [name, game, show] of SCREENS) {
    const cells = [];
    for (const [w, hgt] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({width: w, height: hgt});
      await newGame(page, game);
      await show(page);
      const f = `${name}-${w}x${hgt}.png`;
      await page.screenshot({path: path.join(dir, f), fullPage: true});
      assert.ok(statSync(path.join(dir, f)).size > 1000, `${f} written`);
      cells.push(`<td><a href="${f}"><img src="${f}" alt="${f}" width="${w === 1280 ? 640 : 195}"></a></td>`);
    }
    rows.push(`<tr><th>${name}</th>${cells.join('')}</tr>`);
  }
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>bouton: the boards</title>' +
    '<table><tr><th></th><th>1280x800</th><th>390x844</th></tr>' + rows.join('\n') + '</table>\n');
});

// ---------------------------------------------------------- languages

// The page's English strings still shown where it is in another language:
// every English message of the catalogue (web/messages.js) that differs
// from its translation, looked for in the visible text nodes and in every
// aria-label, title, placeholder and SVG title.  A whole message is
// looked for as the whole text; the fixed pieces of a message (between
// its placeholders and markup) of more than one word, inside any text.
// What the server sends stays English and is marked lang="en": skipped.
function untranslated(page) {
  return page.evaluate(async () => {
    const {MESSAGES} = await import(new URL('messages.js', location.href).href);
    const lang = document.documentElement.lang;
    const theirs = new Set(Object.values(MESSAGES[lang]).filter((v) => typeof v === 'string'));
    const whole = new Set();
    const pieces = new Set();
    for (const [k, en] of Object.entries(MESSAGES.en)) {
      if (typeof en !== 'string' || en === MESSAGES[lang][k] || theirs.has(en)) continue;
      if (en.length > 3 && !/[{<]/.test(en)) whole.add(en.trim());
      // code is the position language's, the same in every language
      for (const f of en.replace(/<code>.*?<\/code>/g, '{code}').split(/\{\w+\}|<[^>]*>/)) {
        const x = f.trim().replace(/^[.,:;()]+|[.,:;()]+$/g, '').trim();
        // a citation such as "(Wythoff, sec. 5)" reads the same in both
        const mine = MESSAGES[lang][k];
        if (x.length >= 8 && x.includes(' ') && !(typeof mine === 'string' && mine.includes(x))) pieces.add(x);
      }
    }
    const english = (el) => {
      const l = el && el.closest('[lang]');
      return l && l.getAttribute('lang').startsWith('en') && l !== document.documentElement;
    };
    const found = [];
    const check = (text, where) => {
      const t = (text || '').replace(/\s+/g, ' ').trim();
      if (!t) return;
      if (whole.has(t)) found.push(`${where}: "${t}"`);
      for (const x of pieces) if (t.includes(x)) found.push(`${where}: "${x}" in "${t.slice(0, 80)}"`);
    };
    check(document.title, 'title');
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!el || english(el)) continue;
      const svgTitle = el.namespaceURI === 'http://www.w3.org/2000/svg' && el.localName === 'title';
      if (!svgTitle && (el.closest('[hidden], script, style') || !el.checkVisibility())) continue;
      check(n.textContent, svgTitle ? 'svg title' : el.localName);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (english(el) || el.closest('[hidden]')) continue;
      for (const a of ['aria-label', 'title', 'placeholder']) check(el.getAttribute(a), `${el.localName}@${a}`);
    }
    return found;
  });
}

async function noEnglish(page, what) {
  const found = await untranslated(page);
  assert.deepEqual(found, [], `English left on the French page (${what})`);
}

// Waits for the French page's turn or game over.
async function settleFr(page) {
  await page.waitForFunction(() => {
    const s = document.getElementById('status').textContent;
    return s.startsWith('À vous') || s.startsWith('Partie terminée') || s.startsWith('Au tour de');
  }, null, {timeout: 15000});
}

for (const [w, hgt, size] of [[1280, 800, 'desktop'], [390, 844, 'phone']]) test(`issue 25: every page in French, no English string of the catalogue left (${size}, ${w}x${hgt})`, async (page) => {
  const ctx = await newContext(page.context().browser(), {locale: 'fr-FR', viewport: {width: w, height: hgt}});
  const p = await ctx.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e.message));
  try {
    // a game in progress: values, hint, analysis and the "?" box open
    await newGame(p, {start: '3 4 5'});
    await settleFr(p);
    assert.equal(await p.getAttribute('html', 'lang'), 'fr');
    await clickCounter(p, 2, 0, 4);
    await p.click('#take');
    await settleFr(p);
    await p.check('#show-values');
    await p.waitForSelector('#values-box .values-head');
    await p.click('#hint');
    await p.waitForSelector('#hint-box h3');
    await p.$eval('#howto', (d) => { d.open = true; });
    await p.$eval('#analysis', (d) => { d.open = true; });
    await p.waitForSelector('#analysis-body .panel-binary');
    await p.$eval('#paste', (d) => { d.open = true; });
    await noEnglish(p, 'Nim in progress');
    await shot(p, `french-play-${size}`);
    // an earlier position viewed
    await p.click('#history .history-item[data-k="1"]');
    await p.waitForSelector('#view-box:not([hidden])');
    await noEnglish(p, 'an earlier position');
    await p.click('#view-back');
    // the setup open
    await p.click('#setup-open');
    await noEnglish(p, 'the setup open');
    // a finished game: the scorecard
    await newGame(p, {start: '1'});
    await settleFr(p);
    await clickCounter(p, 0, 0, 0);
    await p.click('#take');
    await p.waitForSelector('#scorecard:not([hidden]) table');
    assert.match(await p.textContent('#status'), /Partie terminée/);
    await noEnglish(p, 'a finished game');
    // Wythoff as a queen, Kayles' pins, Grundy's split, a sum, coins
    await newGame(p, {game: 'wythoff', start: '4 6', mode: 'two'});
    await p.click('#queen-view');
    await p.click('#golden');
    await p.check('#show-values');
    await p.waitForSelector('#values-box .values-head');
    await noEnglish(p, 'the queen');
    await newGame(p, {game: 'octal', param: 'kayles', start: '9', mode: 'two'});
    await p.click('svg.pile[data-comp="0"] circle[data-j="4"]');
    await p.$eval('#howto', (d) => { d.open = true; });
    await noEnglish(p, 'Kayles');
    await newGame(p, {game: 'grundy', start: '9', mode: 'two'});
    await p.click('svg.pile[data-comp="0"] circle[data-j="3"]');
    await noEnglish(p, "Grundy's game");
    await newGame(p, {game: 'sum', start: 'nim 3 4 + kayles 5 + grundy 7 + wythoff 3 5', mode: 'two'});
    await p.$eval('#howto', (d) => { d.open = true; });
    await noEnglish(p, 'a sum');
    await shot(p, `french-sum-${size}`);
    await newGame(p, {game: 'turtles', start: '3 5', mode: 'two'});
    await p.$eval('#howto', (d) => { d.open = true; });
    await noEnglish(p, 'coins');
    // the analysis page: Nim, Wythoff, a sum, an empty position
    for (const pos of ['3 4 5', 'wythoff 3 5', 'nim 3 + kayles 5']) {
      await p.goto(url + 'analyze.html?p=' + encodeURIComponent(pos));
      await p.waitForSelector('#result:not([hidden]) .panel-outcome');
      await p.waitForFunction(() => !document.getElementById('table-section').hidden ||
        document.getElementById('panel').children.length > 0);
      await noEnglish(p, `analysis of ${pos}`);
    }
    await shot(p, `french-analyse-${size}`);
    await p.fill('#position', '');
    await p.click('#go');
    await p.waitForFunction(() => document.getElementById('ask-error').textContent !== '');
    await noEnglish(p, 'an empty position');
    assert.deepEqual(errors, [], 'no JavaScript errors');
  } finally {
    await ctx.close();
  }
});

test('issue 25: the language switch changes the page and survives a reload', async (page) => {
  await newGame(page, {start: '3 4 5'});
  await settle(page);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal(await page.textContent('#take'), 'Take');
  await page.selectOption('#lang', 'fr');
  await page.waitForFunction(() => document.documentElement.lang === 'fr');
  await settleFr(page);
  assert.equal(await page.textContent('#take'), 'Prendre');
  assert.equal(await page.getAttribute('#lang', 'aria-label'), 'Langue');
  assert.match(await page.textContent('#status'), /À vous de jouer/);
  assert.deepEqual(await piles(page), [3n, 4n, 5n], 'the game is kept');
  await page.reload();
  await settleFr(page);
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  assert.equal(await page.$eval('#lang', (s) => s.value), 'fr');
  // the analysis page too, and back to English
  await page.goto(url + 'analyze.html');
  await page.waitForFunction(() => document.documentElement.lang === 'fr');
  assert.equal(await page.textContent('#go'), 'Analyser');
  await page.selectOption('#lang', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await page.textContent('#go'), 'Analyse');
});

test("issue 25: the browser's language picks French by default", async (page) => {
  const ctx = await newContext(page.context().browser(), {locale: 'fr-FR'});
  const p = await ctx.newPage();
  await p.goto(url);
  await p.waitForSelector('#game:not([disabled])', {state: 'attached'});
  assert.equal(await p.getAttribute('html', 'lang'), 'fr');
  assert.equal(await p.textContent('#start-game'), 'Commencer la partie');
  assert.equal(await p.$eval('#lang', (s) => s.value), 'fr');
  await ctx.close();
  // an English browser gets English
  await page.goto(url);
  await page.waitForSelector('#game:not([disabled])', {state: 'attached'});
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal(await page.textContent('#start-game'), 'Start the game');
});

test('issue 25: the larger-text option scales the text and is remembered', async (page) => {
  await newGame(page, {start: '3 4 5'});
  await settle(page);
  const size = (q) => page.$eval(q, (e) => parseFloat(getComputedStyle(e).fontSize));
  const before = [await size('#status'), await size('#take'), await size('h1')];
  assert.equal(await page.getAttribute('#text-size', 'aria-pressed'), 'false');
  await page.click('#text-size');
  assert.equal(await page.getAttribute('#text-size', 'aria-pressed'), 'true');
  const after = [await size('#status'), await size('#take'), await size('h1')];
  after.forEach((x, k) => assert.ok(x >= before[k] * 1.2, `text ${k} grows: ${before[k]} -> ${x}`));
  await shot(page, 'larger-text');
  await page.reload();
  await settle(page);
  assert.equal(await page.getAttribute('#text-size', 'aria-pressed'), 'true', 'remembered');
  assert.ok(await size('#status') >= before[0] * 1.2);
  // the analysis page too; and off again
  await page.goto(url + 'analyze.html');
  await page.waitForFunction(() => document.documentElement.getAttribute('data-text') === 'large');
  await page.click('#text-size');
  assert.equal(await page.getAttribute('#text-size', 'aria-pressed'), 'false');
  await page.goto(url);
  await settle(page);
  assert.equal(await size('#status'), before[0]);
});

test("issue 25: the queen's grid draws the safe pairs' golden-ratio lines", async (page) => {
  await newGame(page, {game: 'wythoff', start: '4 6', mode: 'two'});
  assert.equal(await page.isVisible('#golden'), false, 'only with the queen');
  await page.click('#queen-view');
  assert.equal(await page.$$eval('svg.queen line.golden', (ls) => ls.length), 0);
  await page.click('#golden');
  assert.equal(await page.getAttribute('#golden', 'aria-pressed'), 'true');
  // the safe pairs of the 5 x 7 grid, by the mex rule: ringed
  const safe = [];
  const used = new Set();
  for (let n = 0, x = 0; x <= 6; n++, x++) {
    while (used.has(x)) x++;
    used.add(x).add(x + n);
    for (const [p, q] of [[x, x + n], [x + n, x]]) if (p <= 4 && q <= 6 && !safe.includes(`${p},${q}`)) safe.push(`${p},${q}`);
  }
  const rings = await page.$$eval('svg.queen .safe-mark', (cs) => cs.map((c) => `${c.dataset.x},${c.dataset.y}`));
  assert.deepEqual(rings.sort(), safe.sort());
  assert.deepEqual(safe.sort(), ['0,0', '1,2', '2,1', '3,5']);
  // two lines from the corner, of slopes phi and 1/phi (y grows upwards)
  const phi = (1 + Math.sqrt(5)) / 2;
  const slopes = await page.$$eval('svg.queen line.golden', (ls) => ls.map((l) => {
    const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => Number(l.getAttribute(k)));
    return (y1 - y2) / (x2 - x1);
  }));
  assert.equal(slopes.length, 2);
  assert.ok(Math.abs(slopes[0] - phi) < 1e-9 && Math.abs(slopes[1] - 1 / phi) < 1e-9, `slopes ${slopes}`);
  await shot(page, 'queen-golden');
  // still a game: a move to the safe pair (3,5), and off again
  await page.click('svg.queen rect[data-x="3"][data-y="5"]');
  await page.click('#take');
  await recorded(page, '-A-> (3,5)');
  await page.click('#golden');
  assert.equal(await page.$$eval('svg.queen line.golden', (ls) => ls.length), 0);
});

// A browser context; with BROWSER_WEB_DIR=DIR the page's files come from
// DIR (the API still from the server): to see a test fail on an older page.
async function newContext(b, opts) {
  const context = await b.newContext(opts);
  if (process.env.BROWSER_WEB_DIR) {
    await context.route((u) => !new URL(u).pathname.startsWith('/v1/'), (route) => {
      const f = new URL(route.request().url()).pathname.slice(1) || 'index.html';
      const type = f.endsWith('.js') ? 'text/javascript' : f.endsWith('.css') ? 'text/css' : f.endsWith('.svg') ? 'image/svg+xml' : 'text/html';
      try {
        route.fulfill({status: 200, contentType: type, body: readFileSync(path.join(process.env.BROWSER_WEB_DIR, f))});
      } catch (e) {
        route.fulfill({status: 404, body: ''});
      }
    });
  }
  return context;
}

const browser = await chromium.launch({executablePath, headless: true, args: ['--no-sandbox']});
let failed = 0;
let ran = 0;
const only = process.env.BROWSER_ONLY ? new RegExp(process.env.BROWSER_ONLY) : null;
for (const {name, fn} of tests) {
  if (only && !only.test(name)) continue;
  ran++;
  const context = await newContext(browser, {viewport: {width: 1000, height: 900}, acceptDownloads: true});
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const t0 = Date.now();
  try {
    await fn(page);
    assert.deepEqual(errors, [], 'no JavaScript errors');
    console.log(`ok - ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}\n  ${String(e.stack || e).split('\n').join('\n  ')}`);
    await page.screenshot({path: path.join(artifacts, 'FAILED-' + name.replace(/[^a-z0-9]+/gi, '-') + '.png'), fullPage: true}).catch(() => {});
  }
  await context.close();
}
await browser.close();
console.log(`screenshots in ${artifacts}`);
console.log(`browser: ${ran - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
