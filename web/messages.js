// messages.js -- every string the page writes itself, in each language
// of the page: English (en) and French (fr).  Keys name a meaning, not a
// place; {name} is a placeholder filled by t(); a function takes the same
// object (for plurals).  What the server sends (move texts, rules,
// explanations, its error messages) is shown as sent, in English, and its
// element is marked lang="en" (mark()).
//
// The language: the switch's choice (kept in the browser's storage), else
// the first of the browser's languages (navigator.languages) the page
// has, else English.  <html lang> follows it.

const s = (n) => (String(n) === '1' ? '' : 's');

// key: [English, French]
const M = {
  'lang.label': ['Language', 'Langue'],
  'lang.en': ['English', 'English'],
  'lang.fr': ['Français', 'Français'],
  'page.play.title': ['bouton: play Nim and its relatives', 'bouton : jouer à Nim et à ses cousins'],
  'page.analyse.title': ['bouton: analyse a position', 'bouton : analyser une position'],
  'skip.game': ['Skip to the game', 'Aller au jeu'],
  'skip.analysis': ['Skip to the analysis', 'Aller à l’analyse'],
  'nav.pages': ['Pages', 'Pages'],
  'nav.play': ['Play', 'Jouer'],
  'nav.analyse': ['Analyse a position', 'Analyser une position'],
  'text.larger': ['A+ Larger text', 'A+ Texte plus grand'],
  'theme.dark': ['Dark', 'Sombre'],
  'theme.to.light': ['Switch to the light theme', 'Passer au thème clair'],
  'theme.to.dark': ['Switch to the dark theme', 'Passer au thème sombre'],
  'setup.heading': ['New game', 'Nouvelle partie'],
  'setup.game': ['Game', 'Jeu'],
  'setup.param': ['Parameter', 'Paramètre'],
  'setup.misere': ['Misère play: whoever makes the last move loses', 'Jeu misère : qui joue le dernier coup perd'],
  'setup.start': ['Start', 'Départ'],
  'setup.random': ['Random start', 'Départ au hasard'],
  'setup.players': ['Players', 'Joueurs'],
  'setup.vs.computer': ['Against the computer', 'Contre l’ordinateur'],
  'setup.vs.two': ['Two players on this screen', 'Deux joueurs sur cet écran'],
  'setup.level': ['Level', 'Niveau'],
  'level.perfect': ['perfect', 'parfait'],
  'level.medium': ['medium', 'moyen'],
  'level.easy': ['easy', 'facile'],
  'level.medium.long': ['medium (errs 1 move in 5)', 'moyen (se trompe 1 coup sur 5)'],
  'level.easy.long': ['easy (errs 1 move in 2)', 'facile (se trompe 1 coup sur 2)'],
  'setup.first': ['First move', 'Premier coup'],
  'first.me': ['me', 'moi'],
  'first.computer': ['the computer', 'l’ordinateur'],
  'setup.go': ['Start the game', 'Commencer la partie'],
  'setup.sum': ['A sum of games', 'Une somme de jeux'],
  'setup.misere.title': ['Misère {title}', '{title} misère'],
  'setup.nopile': ['The start has no pile.', 'Le départ n’a aucun tas.'],
  'setup.summary.vs': ['you vs {level}', 'vous contre {level}'],
  'setup.summary.cfirst': [', the computer first', ', l’ordinateur commence'],
  'setup.summary.two': ['two players', 'deux joueurs'],
  'setup.summary.misere': [' (misère)', ' (misère)'],
  'param.wythoff': ['How far the two takes may differ', 'L’écart permis entre les deux prises'],
  'param.sub': ['The numbers one may take', 'Les nombres qu’on peut prendre'],
  'param.octal': ['The rules, as an octal code', 'Les règles, en code octal'],
  'param.tb': ['The rules, as a take-and-break code', 'Les règles, en code « prendre et casser »'],
  'param.moore': ['Most piles in one move', 'Le plus de tas en un coup'],
  'param.tartan': ['The two games multiplied', 'Les deux jeux multipliés'],
  'param.rules': ['Rules', 'Règles'],
  'param.optional': ['Optional: leave it empty for {name}.', 'Facultatif : laissez vide pour {name}.'],
  'param.named': ['Or a named game: {list}.', 'Ou un jeu nommé : {list}.'],
  'start.help.sum': ['In the position language, e.g. {example}.', 'Dans le langage des positions, par exemple {example}.'],
  'start.help.row': ['The coins showing heads, by their numbers, separated by spaces; any size.', 'Les pièces côté face, par leurs numéros, séparés par des espaces ; toute taille.'],
  'start.help.grid': ['The coins showing heads, each as x,y (e.g. 3,2 1,4), separated by spaces.', 'Les pièces côté face, chacune en x,y (par exemple 3,2 1,4), séparées par des espaces.'],
  'start.help.pair': ['Two numbers: the two piles.', 'Deux nombres : les deux tas.'],
  'start.help.many': ['Numbers separated by spaces, any size: the piles of one game, or the coins showing heads.', 'Des nombres séparés par des espaces, de toute taille : les tas d’un jeu, ou les pièces côté face.'],
  'start.help.nums': ['Numbers separated by spaces; any size.', 'Des nombres séparés par des espaces ; toute taille.'],
  'name.you': ['You', 'Vous'],
  'name.computer': ['Computer', 'Ordinateur'],
  'name.computer.level': ['Computer ({level})', 'Ordinateur ({level})'],
  'name.playerA': ['Player A', 'Joueur A'],
  'name.playerB': ['Player B', 'Joueur B'],
  'result.youwin': ['{name} win', '{name} gagnez'],
  'result.wins': ['{name} wins', '{name} gagne'],
  'result.misere': [' (misère play: the last mover loses)', ' (jeu misère : le dernier à jouer perd)'],
  'result.normal': [' (the last mover wins)', ' (le dernier à jouer gagne)'],
  'result.nomove': [' (no move is possible)', ' (aucun coup n’est possible)'],
  'rules.misere': ['Misère play: whoever makes the last move loses.', 'Jeu misère : qui joue le dernier coup perd.'],
  'rules.normal': ['Whoever makes the last move wins.', 'Qui joue le dernier coup gagne.'],
  'rules.sum': ['A sum of games: on your turn move in any one of the parts, by that part\u2019s rules.', 'Une somme de jeux : à votre tour, jouez dans l’une des parties, selon ses règles.'],
  'rules.params': ['What the parameters mean', 'Ce que veulent dire les paramètres'],
  'rules.family': ['This is {name} {params}.', 'Ceci est {name} {params}.'],
  'help.queen': ['Click a highlighted square to move the queen there, then Take (or click it again).', 'Cliquez une case en surbrillance pour y mener la dame, puis Prendre (ou cliquez-la à nouveau).'],
  'help.tail': ['Click a counter to take it and every counter to its right, then Take (or click it again).', 'Cliquez un jeton pour le prendre avec tous ceux à sa droite, puis Prendre (ou cliquez-le à nouveau).'],
  'help.range': ['Click the counters to take (side by side); taking from the middle splits the heap in two.', 'Cliquez les jetons à prendre (côte à côte) ; en prendre au milieu coupe le tas en deux.'],
  'help.cut': ['Click where to split: the counter you click starts the second heap.', 'Cliquez où couper : le jeton cliqué commence le second tas.'],
  'help.pair': ['In a pair, choose in both piles to take from both.', 'Dans une paire, choisissez dans les deux tas pour prendre dans les deux.'],
  'help.many': ['In a game of several piles, choose in each pile to take from (as many piles as its rules allow).', 'Dans un jeu de plusieurs tas, choisissez dans chaque tas où prendre (autant de tas que ses règles le permettent).'],
  'help.coins': ['Gold coins show heads, pale ones tails. Click the coins to turn (again to unchoose), then Turn; the farthest coin you turn must show heads.', 'Les pièces dorées sont côté face, les pâles côté pile. Cliquez les pièces à retourner (à nouveau pour annuler), puis Retourner ; la plus lointaine doit être côté face.'],
  'fig.or': ['or', 'ou'],
  'fig.nim': ['Nim: a move takes any number of counters, here 2 (dashed), from one pile.', 'Nim : un coup prend autant de jetons qu’on veut, ici 2 (en pointillés), dans un seul tas.'],
  'fig.takes': ['From a heap of {n}, the takes the rules allow (dashed): {list}.', 'D’un tas de {n}, les prises que permettent les règles (en pointillés) : {list}.'],
  'fig.takes.none': ['A heap of {n} has no move in this game.', 'Un tas de {n} n’a aucun coup dans ce jeu.'],
  'fig.take': ['A move takes counters (dashed) from one heap; the code of the rules says how many, and whether what is left may stay one heap or be split in two.', 'Un coup prend des jetons (en pointillés) dans un tas ; le code des règles dit combien, et si le reste peut rester un tas ou être coupé en deux.'],
  'fig.range': ['Knock down {list} pins side by side (dashed): taken from the middle, the row of {n} becomes two rows, of {a} and {b}.', 'Renversez {list} quilles côte à côte (en pointillés) : prises au milieu, le rang de {n} devient deux rangs, de {a} et {b}.'],
  'fig.cut': ['Split one heap into two heaps of different sizes: 7 becomes 3 and 4 (never two equal heaps).', 'Coupez un tas en deux tas de tailles différentes : 7 devient 3 et 4 (jamais deux tas égaux).'],
  'fig.queen': ['The queen moves left, down or diagonally towards the corner (0, 0), as far as you like; the highlighted squares are those she reaches. Whoever puts her in the corner wins.', 'La dame va à gauche, vers le bas ou en diagonale vers le coin (0, 0), aussi loin qu’on veut ; les cases en surbrillance sont celles qu’elle atteint. Qui la met dans le coin gagne.'],
  'fig.queen.misere': ['The queen moves left, down or diagonally towards the corner (0, 0), as far as you like; the highlighted squares are those she reaches. In misère play whoever puts her in the corner loses.', 'La dame va à gauche, vers le bas ou en diagonale vers le coin (0, 0), aussi loin qu’on veut ; les cases en surbrillance sont celles qu’elle atteint. En jeu misère, qui la met dans le coin perd.'],
  'fig.many': ['Take from at least one and at most {k} piles at once, any number from each: here from {m}.', 'Prenez dans au moins un et au plus {k} tas à la fois, autant qu’on veut dans chacun : ici dans {m}.'],
  'fig.row': ['Turn coins over (outlined): the largest coin turned goes from heads (gold) to tails; here coins 3 and 5.', 'Retournez des pièces (entourées) : la plus grande pièce retournée passe de face (or) à pile ; ici les pièces 3 et 5.'],
  'fig.row.ruler': ['Turn over a run of coins side by side (outlined): the largest goes from heads (gold) to tails; here coins 4 and 5.', 'Retournez une suite de pièces voisines (entourées) : la plus grande passe de face (or) à pile ; ici les pièces 4 et 5.'],
  'fig.grid': ['Turn over the four corners of a rectangle (outlined): the corner farthest from (0, 0) goes from heads (gold) to tails.', 'Retournez les quatre coins d’un rectangle (entourés) : le coin le plus loin de (0, 0) passe de face (or) à pile.'],
  'fig.tartan': ['A move turns over the coins of a move of each game, crossed (here four corners, outlined): the coin farthest from (0, 0) goes from heads (gold) to tails.', 'Un coup retourne les pièces d’un coup de chaque jeu, croisées (ici quatre coins, entourés) : la pièce la plus loin de (0, 0) passe de face (or) à pile.'],
  'howto.summary': ['How to play this game', 'Comment jouer à ce jeu'],
  'howto.tail': ['Click or tap a counter: it and every counter to its right are chosen (shown dashed). Press Take, or click the chosen counter again, to take them.', 'Cliquez ou touchez un jeton : lui et tous ceux à sa droite sont choisis (en pointillés). Appuyez sur Prendre, ou cliquez à nouveau le jeton choisi, pour les prendre.'],
  'howto.tail.keys': ['Keyboard: Tab to a pile, the arrow keys choose how many to take, Enter takes, Esc clears.', 'Clavier : Tab jusqu’à un tas, les flèches choisissent combien prendre, Entrée prend, Échap efface.'],
  'howto.range': ['The pins stand in a row: click the pins to take, side by side (one, then its neighbour to take two). Press Take. Taking pins from the middle splits the row in two; a \u21b5 at the end of a line means the row goes on at the start of the next.', 'Les quilles sont en rang : cliquez les quilles à prendre, côte à côte (une, puis sa voisine pour en prendre deux). Appuyez sur Prendre. En prendre au milieu coupe le rang en deux ; un \u21b5 en fin de ligne veut dire que le rang continue au début de la ligne suivante.'],
  'howto.range.keys': ['Keyboard: Tab to a row, the arrow keys move the chosen pins, up and down take more or fewer, Enter takes.', 'Clavier : Tab jusqu’à un rang, les flèches déplacent les quilles choisies, haut et bas en prennent plus ou moins, Entrée prend.'],
  'howto.cut': ['Click where to split: the counter you click starts the second heap, drawn in blue. The two heaps must be of different sizes. Press Take, or click the same counter again.', 'Cliquez où couper : le jeton cliqué commence le second tas, dessiné en bleu. Les deux tas doivent être de tailles différentes. Appuyez sur Prendre, ou cliquez à nouveau le même jeton.'],
  'howto.cut.keys': ['Keyboard: Tab to the heap, the arrow keys move the split, Enter splits.', 'Clavier : Tab jusqu’au tas, les flèches déplacent la coupe, Entrée coupe.'],
  'howto.pair': ['A pair of piles: choose in one pile to take from it alone, or in both to take from both (as much from each, or what the rules allow). With move values on, choosing in one pile colours the moves of the other.', 'Une paire de tas : choisissez dans un tas pour ne prendre que dans celui-ci, ou dans les deux pour prendre dans les deux (autant dans chacun, ou ce que permettent les règles). Avec les valeurs des coups, choisir dans un tas colore les coups de l’autre.'],
  'howto.queen': ['Queen on a grid shows the pair as a queen at (first pile, second pile), moving left, down or diagonally towards the corner (0, 0): click a highlighted square, then Take (keyboard: the arrow keys choose the square, Enter moves).', 'Dame sur une grille montre la paire comme une dame en (premier tas, second tas), qui va à gauche, vers le bas ou en diagonale vers le coin (0, 0) : cliquez une case en surbrillance, puis Prendre (clavier : les flèches choisissent la case, Entrée déplace).'],
  'howto.many': ['One game of several piles: choose in each pile to take from, as many piles as its rules allow, then Take.', 'Un jeu de plusieurs tas : choisissez dans chaque tas où prendre, autant de tas que ses règles le permettent, puis Prendre.'],
  'howto.coins.keys': ['Keyboard: Tab to the coins, the arrow keys move, Space chooses a coin, Enter turns, Esc clears.', 'Clavier : Tab jusqu’aux pièces, les flèches déplacent, Espace choisit une pièce, Entrée retourne, Échap efface.'],
  'howto.sum': ['A sum: on your turn you move in one part only, by that part\u2019s rules.', 'Une somme : à votre tour vous jouez dans une seule partie, selon ses règles.'],
  'howto.values': ['Show move values colours each move green (it wins against best play) or red (it loses); Hint names the winning moves.', 'Afficher la valeur des coups colore chaque coup en vert (il gagne contre le meilleur jeu) ou en rouge (il perd) ; Indice nomme les coups gagnants.'],
  'status.choose': ['Choose a game and start it.', 'Choisissez un jeu et commencez la partie.'],
  'status.over': ['Game over: {result}.', 'Partie terminée : {result}.'],
  'status.thinking': ['The computer is thinking\u2026', 'L’ordinateur réfléchit\u2026'],
  'status.cantmove': ['The computer could not move.', 'L’ordinateur n’a pas pu jouer.'],
  'status.yours': ['Your move.', 'À vous de jouer.'],
  'status.computers': ['The computer\u2019s move.', 'À l’ordinateur de jouer.'],
  'status.tomove': ['{name} to move.', 'Au tour de {name}.'],
  'status.played': ['The computer played: {move}.', 'L’ordinateur a joué : {move}.'],
  'status.loaded': [(p) => `Loaded ${p.n} move${s(p.n)}.`, (p) => `${p.n} coup${s(p.n)} chargé${s(p.n)}.`],
  'over.again': ['Play again', 'Rejouer'],
  'view.back': ['Back to the game', 'Retour à la partie'],
  'view.continue': ['Continue from here', 'Continuer d’ici'],
  'view.start': ['You are looking at the start of the game.', 'Vous regardez le début de la partie.'],
  'view.after': ['You are looking at the position after move {k} of {n}.', 'Vous regardez la position après le coup {k} sur {n}.'],
  'act.take': ['Take', 'Prendre'],
  'act.turn': ['Turn', 'Retourner'],
  'act.clear': ['Clear selection', 'Effacer le choix'],
  'act.hint': ['Hint', 'Indice'],
  'act.undo': ['Undo', 'Annuler'],
  'act.redo': ['Redo', 'Rétablir'],
  'act.restart': ['Restart', 'Recommencer'],
  'act.queen': ['Queen on a grid', 'Dame sur une grille'],
  'act.golden': ['Golden-ratio line', 'Ligne du nombre d’or'],
  'act.piles': ['Two piles', 'Deux tas'],
  'act.values': ['Show move values', 'Afficher la valeur des coups'],
  'err.retry': ['Try again', 'Réessayer'],
  'err.undomine': ['Undo my move', 'Annuler mon coup'],
  'err.computer': ['The computer could not move: {why} ', 'L’ordinateur n’a pas pu jouer : {why} '],
  'err.illegal': ['Not a legal move: {why}.', 'Coup interdit : {why}.'],
  'err.firstcut': ['Choose the first counter of the second heap (not the very first counter).', 'Choisissez le premier jeton du second tas (pas le tout premier jeton).'],
  'err.address': ['The game in the address could not be loaded: {why}', 'La partie de l’adresse n’a pas pu être chargée : {why}'],
  'err.games': ['The list of games could not be loaded: {why}', 'La liste des jeux n’a pas pu être chargée : {why}'],
  'hint.heading': ['Hint', 'Indice'],
  'hint.thinking': ['Thinking\u2026', 'Réflexion\u2026'],
  'hint.ploss': ['Every move leaves a winning position for the other side; against a fallible opponent, make the game long and hard.', 'Chaque coup laisse une position gagnante à l’adversaire ; contre un adversaire faillible, rendez la partie longue et difficile.'],
  'hint.why': ['Why', 'Pourquoi'],
  'hint.none': ['No hint: {why}', 'Pas d’indice : {why}'],
  'values.yourturn': ['The values of the moves are shown on your turn.', 'La valeur des coups s’affiche à votre tour.'],
  'values.busy': ['Finding the value of every move\u2026', 'Calcul de la valeur de chaque coup\u2026'],
  'values.limit': ['This position has too many moves to give each its value. The Hint button still finds the winning moves.', 'Cette position a trop de coups pour donner la valeur de chacun. Le bouton Indice trouve quand même les coups gagnants.'],
  'values.none': ['No move values here: {why}', 'Pas de valeur des coups ici : {why}'],
  'values.head': ['Move values: ', 'Valeur des coups : '],
  'values.nomove': ['no move is left.', 'il ne reste aucun coup.'],
  'values.count': [(p) => `${p.wins} of ${p.n} move${s(p.n)} win${p.wins === 1 && p.n === 1 ? 's' : ''} for the player to move.`,
    (p) => `${p.wins} coup${p.wins > 1 ? 's' : ''} sur ${p.n} gagne${p.wins > 1 ? 'nt' : ''} pour le joueur au trait.`],
  'values.legend': ['Green: wins against best play; red: loses; "in N": moves to the end, this one included. The best moves come first.', 'Vert : gagne contre le meilleur jeu ; rouge : perd ; « en N » : coups jusqu’à la fin, celui-ci compris. Les meilleurs coups d’abord.'],
  'values.all': ['Show all {n} moves', 'Afficher les {n} coups'],
  'values.why.some': ['Where a move says only "wins" or "loses", the number of moves to the end was not counted: the server counts them only while its time for one answer lasts (its remoteness budget), and {bare} of {all} were left uncounted. Wins and losses are exact.', 'Quand un coup dit seulement « gagne » ou « perd », le nombre de coups jusqu’à la fin n’a pas été compté : le serveur ne les compte que pendant le temps d’une réponse (son budget), et {bare} sur {all} sont restés non comptés. Gains et pertes sont exacts.'],
  'values.why.all': ['The number of moves to the end is not counted in a game this big: counting it takes longer than the server\u2019s time for one answer (its remoteness budget). Wins and losses are exact.', 'Le nombre de coups jusqu’à la fin n’est pas compté dans un jeu aussi grand : le compter prend plus que le temps d’une réponse du serveur (son budget). Gains et pertes sont exacts.'],
  'value.unknown': ['value unknown', 'valeur inconnue'],
  'value.wins': ['wins', 'gagne'],
  'value.loses': ['loses', 'perd'],
  'value.winsin': ['wins in {n}', 'gagne en {n}'],
  'value.losesin': ['loses in {n}', 'perd en {n}'],
  'value.chosen': ['The chosen move {words}.', 'Le coup choisi {words}.'],
  'analysis.summary': ['Analysis of the position', 'Analyse de la position'],
  'analysis.first': ['Start a game first.', 'Commencez d’abord une partie.'],
  'analysis.none': ['No analysis: {why}', 'Pas d’analyse : {why}'],
  'explain.summary': ['The explanation', 'L’explication'],
  'history.heading': ['Moves', 'Coups'],
  'history.start': ['Start {pos}', 'Départ {pos}'],
  'chart.label': ['Who was winning after each move: {list}', 'Qui gagnait après chaque coup : {list}'],
  'chart.region': ['The value history', 'L’historique des valeurs'],
  'chart.cue': ['\u2190 Scroll sideways for the earlier moves', '\u2190 Faites défiler de côté pour les coups précédents'],
  'chart.winning': ['{name} winning', '{name} en tête'],
  'chart.unknown': ['not known.', 'inconnu.'],
  'chart.legend': ['The further a dot from the middle line, the fewer moves to the end; a ringed dot is the position shown.', 'Plus un point est loin de la ligne du milieu, moins il reste de coups ; un point cerclé est la position affichée.'],
  'chart.legend.alt': ['A faint dot is a move not played.', 'Un point pâle est un coup non joué.'],
  'chart.alt': ['Move {k} not played', 'Coup {k} non joué'],
  'chart.start': ['Start', 'Départ'],
  'chart.after': ['After move {k}', 'Après le coup {k}'],
  'chart.towin': [(p) => ` (${p.r} move${s(p.r)} to the end)`, (p) => ` (${p.r} coup${s(p.r)} jusqu’à la fin)`],
  'verdict.threw': ['threw the win away', 'a laissé filer le gain'],
  'verdict.bestwin': ['best: the quickest win', 'meilleur : le gain le plus rapide'],
  'verdict.kept': ['kept the win', 'a gardé le gain'],
  'verdict.bestdef': ['best: the longest defence', 'meilleur : la plus longue défense'],
  'verdict.lost': ['no winning move', 'aucun coup gagnant'],
  'verdict.best': ['best', 'meilleur'],
  'score.caption': ['Scorecard: what each move did', 'Bilan : ce qu’a fait chaque coup'],
  'board.heading': ['The game', 'La partie'],
  'record.heading': ['Game record', 'Relevé de la partie'],
  'record.label': ['The game record', 'Le relevé de la partie'],
  'record.download': ['Download the record', 'Télécharger le relevé'],
  'record.load.summary': ['Load a game record', 'Charger un relevé de partie'],
  'record.paste': ['Paste a record, such as <code>(41,163,13) -A-&gt; (25,163,13) -B-&gt; (25,19,13)</code>, with a <code>game: wythoff</code> line first for other games than Nim:',
    'Collez un relevé, tel que <code>(41,163,13) -A-&gt; (25,163,13) -B-&gt; (25,19,13)</code>, précédé d’une ligne <code>game: wythoff</code> pour les jeux autres que Nim :'],
  'record.load': ['Load and continue', 'Charger et continuer'],
  'foot.text': ['Each game says how to play it under its rules, beside the board (open the <strong>?</strong> "How to play this game"). Keys: <kbd>Tab</kbd> to a pile or a board, the arrow keys to choose, <kbd>Enter</kbd> to move, <kbd>Esc</kbd> to clear, <kbd>h</kbd> for a hint, <kbd>u</kbd> to undo, <kbd>r</kbd> to redo. The address holds the game: reload it, or share it as a link.',
    'Chaque jeu dit comment y jouer sous ses règles, à côté du plateau (ouvrez le <strong>?</strong> « Comment jouer à ce jeu »). Touches : <kbd>Tab</kbd> jusqu’à un tas ou un plateau, les flèches pour choisir, <kbd>Entrée</kbd> pour jouer, <kbd>Échap</kbd> pour effacer, <kbd>h</kbd> pour un indice, <kbd>u</kbd> pour annuler, <kbd>r</kbd> pour rétablir. L’adresse contient la partie : rechargez-la, ou partagez-la comme lien.'],
  'ask.position': ['Position', 'Position'],
  'ask.go': ['Analyse', 'Analyser'],
  'ask.misere': ['Misère play (whoever makes the last move loses)', 'Jeu misère (qui joue le dernier coup perd)'],
  'ask.help1': ['Piles separated by spaces are Nim (<code>41 163 13</code>); name a game for the others', 'Des tas séparés par des espaces sont du Nim (<code>41 163 13</code>) ; nommez le jeu pour les autres'],
  'ask.help2': [', and join components with <code>+</code>: ', ', et joignez les composantes par <code>+</code> : '],
  'ask.help3': ['. Numbers may have any number of digits.', '. Les nombres peuvent avoir autant de chiffres qu’on veut.'],
  'ask.busy': ['Analysing\u2026', 'Analyse en cours\u2026'],
  'ask.result': ['The analysis', 'L’analyse'],
  'ask.empty': ['Type a position first: piles such as 3 4 5, or a game and its numbers such as kayles 10.', 'Tapez d’abord une position : des tas comme 3 4 5, ou un jeu et ses nombres comme kayles 10.'],
  'ask.position.is': ['Position: ', 'Position : '],
  'ask.misere.play': [' (misère play)', ' (jeu misère)'],
  'ask.normal.play': [' (normal play)', ' (jeu normal)'],
  'ask.nopanel': ['No panel: {why}', 'Pas de tableau : {why}'],
  'ask.none': ['(none)', '(aucune)'],
  'ask.notable': ['No table: {why}', 'Pas de table : {why}'],
  'table.heading': ['Safe combinations around it', 'Les combinaisons sûres alentour'],
  'table.more': ['More safe combinations', 'Plus de combinaisons sûres'],
  'table.caption': ['Safe combinations', 'Combinaisons sûres'],
  'table.yours': ['\u2190 your position', '\u2190 votre position'],
  'table.falls': ['\u2190 your position ({pos}) falls here: not safe', '\u2190 votre position ({pos}) tombe ici : pas sûre'],
  'table.toobig': ['The numbers are too big to list the table up to them; the winning moves above are the safe combinations one move away.', 'Les nombres sont trop grands pour dresser la table jusqu’à eux ; les coups gagnants ci-dessus sont les combinaisons sûres à un coup.'],
  'table.var': ['The table of {game} is listed for at most {piles} piles below {reach}; the winning moves above are the safe combinations one move away.', 'La table de {game} est dressée pour au plus {piles} tas sous {reach} ; les coups gagnants ci-dessus sont les combinaisons sûres à un coup.'],
  'row.first': ['{name}, first pile', '{name}, premier tas'],
  'row.second': ['{name}, second pile', '{name}, second tas'],
  'row.pile': ['{name}, pile {n}', '{name}, tas {n}'],
  'comp.pile': ['pile {n}', 'tas {n}'],
  'comp.pair': ['pair {n}', 'paire {n}'],
  'comp.game': ['game {n}', 'jeu {n}'],
  'comp.heap': ['heap {n}', 'tas {n}'],
  'sel.none': ['nothing chosen', 'rien de choisi'],
  'sel.tail': ['take {k}, leaving {left}', 'prendre {k}, en laisser {left}'],
  'sel.range': ['take counters {a} to {b}', 'prendre les jetons {a} à {b}'],
  'sel.cut': ['split into {a} and {b}', 'couper en {a} et {b}'],
  'sel.typed': ['a number typed', 'un nombre tapé'],
  'big.placeholder': ['how many to take', 'combien prendre'],
  'big.tail': ['{name} has {digits} digits, too many counters to draw: type how many to take', '{name} a {digits} chiffres, trop de jetons à dessiner : tapez combien prendre'],
  'big.heaps': ['{name} has {digits} digits, too many counters to draw: type the heaps it leaves', '{name} a {digits} chiffres, trop de jetons à dessiner : tapez les tas qui restent'],
  'big.range': ['a number from 1 to {n}', 'un nombre de 1 à {n}'],
  'big.left': ['the heaps left, separated by spaces', 'les tas qui restent, séparés par des espaces'],
  'big.nums': ['type non-negative whole numbers only', 'tapez seulement des nombres entiers positifs ou nuls'],
  'big.one': ['type one number: how many to take from {name}', 'tapez un nombre : combien prendre dans {name}'],
  'big.toomany': ['Not a legal move: {name} has {n} counters; you cannot take {k}', 'Coup interdit : {name} a {n} jetons ; vous ne pouvez pas en prendre {k}'],
  'ill.one': ['take at least one counter', 'prenez au moins un jeton'],
  'pile.label': [(p) => `${p.name}: ${p.n} counter${s(p.n)}`, (p) => `${p.name} : ${p.n} jeton${s(p.n)}`],
  'pile.empty': ['empty', 'vide'],
  'pile.cont': ['the row goes on at the start of the next line', 'le rang continue au début de la ligne suivante'],
  'pile.counter': ['{name}, counter {n}', '{name}, jeton {n}'],
  'try.here': ['taking from here', 'prendre à partir d’ici'],
  'try.pin': ['taking this pin', 'prendre cette quille'],
  'try.pins': ['taking this pin and the next', 'prendre cette quille et la suivante'],
  'try.split': ['splitting here', 'couper ici'],
  'queen.name': ['The queen', 'La dame'],
  'queen.label': ['{name} at column {a}, row {b}; chosen: column {x}, row {y}.', '{name} en colonne {a}, ligne {b} ; choisie : colonne {x}, ligne {y}.'],
  'queen.keys': ['Click a highlighted square, or move with the arrow keys, to choose where she goes; Enter moves her.', 'Cliquez une case en surbrillance, ou déplacez-vous avec les flèches, pour choisir où elle va ; Entrée la déplace.'],
  'queen.square': ['column {x}, row {y}', 'colonne {x}, ligne {y}'],
  'queen.moving': ['moving here {words}', 'aller ici {words}'],
  'queen.safe': ['a safe square: whoever moves the queen here wins', 'une case sûre : qui y amène la dame gagne'],
  'queen.here': ['the queen: column {x}, row {y}', 'la dame : colonne {x}, ligne {y}'],
  'queen.at': ['{name}: column {a}, row {b} (piles {a} and {b})', '{name} : colonne {a}, ligne {b} (tas {a} et {b})'],
  'coins.name': ['The coins', 'Les pièces'],
  'coins.board': ['This board', 'Ce plateau'],
  'coins.heads': [(p) => `${p.name}: ${p.n} head${s(p.n)}`, (p) => `${p.name} : ${p.n} face${s(p.n)}`],
  'coins.keys': ['; {n} chosen to turn. Arrows move, Space chooses a coin, Enter turns the chosen coins.', ' ; {n} choisie(s) à retourner. Les flèches déplacent, Espace choisit une pièce, Entrée retourne les pièces choisies.'],
  'coin.heads': ['heads', 'face'],
  'coin.tails': ['tails', 'pile'],
  'coin.H': ['H', 'F'],
  'coin.chosen': [', chosen to turn', ', choisie pour être retournée'],
  'coin.win': [', turned by a winning move', ', retournée par un coup gagnant'],
  'coin.xy': ['coin ({k})', 'pièce ({k})'],
  'coin.n': ['coin {k}', 'pièce {k}'],
  'coins.alltails': ['all tails', 'toutes côté pile'],
  'coins.headsat': ['heads at {list}', 'face en {list}'],
  'coins.ph.grid': ['coins to turn, e.g. 3,5 3,9', 'pièces à retourner, par exemple 3,5 3,9'],
  'coins.ph.row': ['coins to turn, e.g. 4 9', 'pièces à retourner, par exemple 4 9'],
  'coins.far.grid': ['{name} has coins too far along to draw (past {n} on a side): type the coins to turn', '{name} a des pièces trop loin pour être dessinées (au-delà de {n} de côté) : tapez les pièces à retourner'],
  'coins.far.row': ['{name} has coins too far along to draw (past {n} coins): type the coins to turn', '{name} a des pièces trop loin pour être dessinées (au-delà de {n} pièces) : tapez les pièces à retourner'],
  'coins.help.grid': ['each coin as x,y, separated by spaces; the farthest must show heads', 'chaque pièce en x,y, séparées par des espaces ; la plus lointaine doit être côté face'],
  'coins.help.row': ['coin numbers separated by spaces; the largest must show heads', 'des numéros de pièces séparés par des espaces ; la plus grande doit être côté face'],
  'coins.totails': ['{list} to tails', '{list} côté pile'],
  'coins.toheads': ['{list} to heads', '{list} côté face'],
  'coins.chosen': ['Chosen to turn: {list}. Press Turn to move.', 'À retourner : {list}. Appuyez sur Retourner pour jouer.'],
  'coins.type.grid': ['type each coin as x,y (not "{p}")', 'tapez chaque pièce en x,y (pas « {p} »)'],
  'coins.type.row': ['type coin numbers only (not "{p}")', 'tapez seulement des numéros de pièces (pas « {p} »)'],
  'coins.twice': ['{coin} is typed twice', '{coin} est tapée deux fois'],
  'coins.none': ['type the coins to turn', 'tapez les pièces à retourner'],
  'ill.negative': ['numbers cannot be negative', 'les nombres ne peuvent pas être négatifs'],
  'ill.nim': ['a Nim move leaves one pile', 'un coup de Nim laisse un tas'],
  'ill.wythoff': ['a Wythoff move leaves two piles', 'un coup de Wythoff laisse deux tas'],
  'ill.grow': ['a pile cannot grow', 'un tas ne peut pas grandir'],
  'ill.same': ['from both piles you must take the same number', 'dans les deux tas il faut prendre le même nombre'],
  'ill.differ': ['from both piles the numbers taken must differ by less than {a}', 'dans les deux tas les nombres pris doivent différer de moins de {a}'],
  'ill.sub': ['a subtraction move leaves one heap', 'un coup de soustraction laisse un tas'],
  'ill.set': ['you may take {set} counters, not {k}', 'vous pouvez prendre {set} jetons, pas {k}'],
  'ill.heapgrow': ['a heap cannot grow', 'un tas ne peut pas grandir'],
  'ill.noempty': ['leave no empty heap', 'ne laissez aucun tas vide'],
  'ill.maynot': ['you may not take {k} counters', 'vous ne pouvez pas prendre {k} jetons'],
  'ill.taking': ['taking {k} you may not {how}', 'en prenant {k} vous ne pouvez pas {how}'],
  'ill.how.whole': ['take the whole heap', 'prendre tout le tas'],
  'ill.how.one': ['leave one heap', 'laisser un tas'],
  'ill.how.two': ['leave two heaps', 'laisser deux tas'],
  'ill.how.that': ['do that', 'faire cela'],
  'ill.split': ['split the heap into two', 'coupez le tas en deux'],
  'ill.unequal': ['the two heaps must be unequal', 'les deux tas doivent être inégaux'],
  'ill.nonempty': ['both heaps must be non-empty', 'les deux tas doivent être non vides'],
  'scroll.cue': ['Scroll sideways to see every column \u2192', 'Faites défiler de côté pour voir toutes les colonnes \u2192'],
  'bin.caption': ['The piles in binary, units in one column (Bouton, sec. 2)', 'Les tas en binaire, les unités dans une colonne (Bouton, sec. 2)'],
  'bin.label': ['The piles in binary', 'Les tas en binaire'],
  'bin.number': ['number', 'nombre'],
  'bin.digits': ['binary digits (2^k)', 'chiffres binaires (2^k)'],
  'bin.sums': ['column sums', 'sommes des colonnes'],
  'bin.nimsum': ['nim-sum', 'somme de Nim'],
  'bin.last': ['Only the last {shown} of {width} binary digits are shown.', 'Seuls les {shown} derniers des {width} chiffres binaires sont montrés.'],
  'bin.ones': [(p) => `Misère play, no pile above one counter (Bouton, sec. 6): ${p.n} single counter${s(p.n)}, `, (p) => `Jeu misère, aucun tas de plus d’un jeton (Bouton, sec. 6) : ${p.n} jeton${s(p.n)} seul${s(p.n)}, `],
  'bin.odd': ['an odd number: a safe combination (P-position).', 'un nombre impair : une combinaison sûre (P-position).'],
  'bin.even': ['an even number: not safe (N-position); take a single counter or a whole pile to leave an odd number of ones.', 'un nombre pair : pas sûre (N-position) ; prenez un seul jeton ou tout un tas pour laisser un nombre impair de jetons seuls.'],
  'bin.misere': ['Misère play (Bouton, sec. 6): while some pile has more than one counter, the safe combinations are those of normal play, except that the winning move leaves an odd number of single counters when it would leave only piles of one.', 'Jeu misère (Bouton, sec. 6) : tant qu’un tas a plus d’un jeton, les combinaisons sûres sont celles du jeu normal, sauf que le coup gagnant laisse un nombre impair de jetons seuls quand il ne laisserait que des tas d’un jeton.'],
  'bin.safe': ['Every column sum is even: a safe combination (P-position).', 'Chaque somme de colonne est paire : une combinaison sûre (P-position).'],
  'bin.lead': ['The leftmost odd column is the one worth 2^{k}: not safe (N-position).', 'La colonne impaire la plus à gauche vaut 2^{k} : pas sûre (N-position).'],
  'bin.move': ['A winning move shrinks a number with a 1 there ({rows}), writing 0 in that column and choosing the digits to its right so that every column sum becomes even.', 'Un coup gagnant diminue un nombre qui y a un 1 ({rows}), en écrivant 0 dans cette colonne et en choisissant les chiffres à sa droite pour que chaque somme de colonne devienne paire.'],
  'wy.misere1': ['Misère play: the safe pairs are those of normal play except in the corner: (0,1) and (2,2) are safe, (0,0) and (1,2) are not.', 'Jeu misère : les paires sûres sont celles du jeu normal sauf dans le coin : (0,1) et (2,2) sont sûres, (0,0) et (1,2) ne le sont pas.'],
  'wy.misere': ['Misère play: the safe pairs are (0,1) and then (A\u2099, A\u2099 + 1 + {a}n), A\u2099 the smallest number not used before.', 'Jeu misère : les paires sûres sont (0,1) puis (A\u2099, A\u2099 + 1 + {a}n), A\u2099 le plus petit nombre pas encore utilisé.'],
  'wy.mex': ['Each safe pair is (A\u2099, B\u2099) with A\u2099 the smallest number not in an earlier pair (the mex) and B\u2099 = A\u2099 + {a}n (Wythoff, sec. 5).', 'Chaque paire sûre est (A\u2099, B\u2099) avec A\u2099 le plus petit nombre absent des paires précédentes (le mex) et B\u2099 = A\u2099 + {a}n (Wythoff, sec. 5).'],
  'wy.closed': ['In closed form A\u2099 = \u230an\u00b7\u03b1\u230b with \u03b1 = (2 \u2212 a + \u221a(a\u00b2+4))/2 = {alpha}\u2026', 'En forme close A\u2099 = \u230an\u00b7\u03b1\u230b avec \u03b1 = (2 \u2212 a + \u221a(a\u00b2+4))/2 = {alpha}\u2026'],
  'wy.phi': [' = \u03c6, the golden ratio, and B\u2099 = \u230an\u00b7\u03c6\u00b2\u230b (sec. 6).', ' = \u03c6, le nombre d’or, et B\u2099 = \u230an\u00b7\u03c6\u00b2\u230b (sec. 6).'],
  'wy.caption': ['Safe pairs around the position', 'Les paires sûres autour de la position'],
  'wy.label': ['Safe pairs', 'Paires sûres'],
  'wy.safe': ['({x},{y}) is a safe pair: the player to move loses against best play.', '({x},{y}) est une paire sûre : le joueur au trait perd contre le meilleur jeu.'],
  'wy.notsafe': ['({x},{y}) is not a safe pair; the highlighted rows share a number with it.', '({x},{y}) n’est pas une paire sûre ; les lignes en surbrillance ont un nombre en commun avec elle.'],
  'sum.label': ['Components', 'Composantes'],
  'sum.caption': ['Components and their Grundy values', 'Les composantes et leurs valeurs de Grundy'],
  'sum.game': ['game', 'jeu'],
  'sum.position': ['position', 'position'],
  'sum.grundy': ['Grundy value', 'valeur de Grundy'],
  'sum.binary': ['The Grundy values in binary: their nim-sum is the value of the sum', 'Les valeurs de Grundy en binaire : leur somme de Nim est la valeur de la somme'],
  'q.intro': [(p) => `Misère play through the misère quotient Q of ${p.game} (Plambeck and Siegel): ${p.heaps}, and so every sum of such heaps, is an element of Q, a monoid of ${p.order} elements; the ${p.p} element${s(p.p)} of its P-portion P ${String(p.p) === '1' ? 'is that' : 'are those'} of the misère P-positions. A sum is a P-position exactly when the product of its heaps' elements lies in P, as a nim-sum of 0 decides normal play.`,
    (p) => `Jeu misère par le quotient misère Q de ${p.game} (Plambeck et Siegel) : ${p.heaps}, et donc chaque somme de tels tas, est un élément de Q, un monoïde de ${p.order} éléments ; ${String(p.p) === '1' ? 'l’élément' : `les ${p.p} éléments`} de sa partie P ${String(p.p) === '1' ? 'est celui' : 'sont ceux'} des positions P misère. Une somme est une position P exactement quand le produit des éléments de ses tas est dans P, comme une somme de Nim nulle décide le jeu normal.`],
  'q.heaps.upto': ['every heap of at most {upto} counters', 'chaque tas d’au plus {upto} jetons'],
  'q.heaps.all': ['every heap', 'chaque tas'],
  'q.proved': ['Q was computed from the heaps of at most {upto} counters and proved to be the quotient of every heap: heap h + {period} has the element of heap h for every h \u2265 {preperiod}.', 'Q a été calculé sur les tas d’au plus {upto} jetons et prouvé être le quotient de tous les tas : le tas h + {period} a l’élément du tas h pour tout h \u2265 {preperiod}.'],
  'q.loaded': ['Q was read from a saved quotient and checked exactly.', 'Q a été lu d’un quotient enregistré et vérifié exactement.'],
  'q.pset': ['P = ', 'P = '],
  'q.label': ['Heaps and their elements', 'Les tas et leurs éléments'],
  'q.caption': ['Each heap as an element of Q', 'Chaque tas comme élément de Q'],
  'q.heap': ['counters', 'jetons'],
  'q.element': ['element of Q', 'élément de Q'],
  'q.as': [' (that of heap {n}, by the period)', ' (celui du tas {n}, par la période)'],
  'q.product': ['The product of the elements is ', 'Le produit des éléments est '],
  'q.in': [', which lies in P: a P-position; every move leaves a product outside P.', ', qui est dans P : une position P ; chaque coup laisse un produit hors de P.'],
  'q.out': [', which is not in P: an N-position; a winning move leaves a product in P.', ', qui n’est pas dans P : une position N ; un coup gagnant laisse un produit dans P.'],
  'q.leaves': ['leaves ', 'laisse '],
  'q.one': ['1, the identity: the element of no heap at all', '1, l’élément neutre : celui d’aucun tas'],
  'q.full': ['The explanation in full', 'L’explication complète'],
  'sum.misere': ['In misère play Grundy values do not decide a sum: the outcome comes from an exhaustive search of the game.', 'En jeu misère les valeurs de Grundy ne décident pas d’une somme : l’issue vient d’une recherche exhaustive du jeu.'],
  'out.p': [': the previous player wins; every move loses against best play.', ' : le joueur précédent gagne ; chaque coup perd contre le meilleur jeu.'],
  'out.n': [': the next player (to move) wins with one of these moves.', ' : le joueur suivant (au trait) gagne par l’un de ces coups.'],
  'out.many': [': the next player (to move) wins, but there are too many winning moves to list them here.', ' : le joueur suivant (au trait) gagne, mais il y a trop de coups gagnants pour les lister ici.'],
  'out.some': [': the next player (to move) wins; there are too many winning moves to list: here are {n} of them.', ' : le joueur suivant (au trait) gagne ; il y a trop de coups gagnants pour tous les lister : en voici {n}.'],
  'out.grundy': ['Grundy value {g}.', 'Valeur de Grundy {g}.'],
  'out.lasts': [(p) => `With best play the game lasts ${p.n} more move${s(p.n)}.`, (p) => `Avec le meilleur jeu la partie dure encore ${p.n} coup${s(p.n)}.`],
  'out.notcounted': ['How many moves the game lasts is not counted: the game is too big to count in the time one answer is allowed.', 'La durée de la partie n’est pas comptée : le jeu est trop grand pour le temps alloué à une réponse.'],
  'out.rem': ['Remoteness {n}.', 'Éloignement {n}.'],
  'out.remunknown': ['Remoteness unknown ({why}).', 'Éloignement inconnu ({why}).'],
  'out.component': ['component {n}', 'composante {n}'],
  'out.nothing': ['nothing', 'rien'],
  'out.play': ['Play this move', 'Jouer ce coup'],
  'table.count': [(p) => `${p.k} ${p.word}${s(p.k)} ${p.variable ? 'of one game ' : ''}of ${p.game}, each below ${p.below}, in lexicographic order, each listed once with its numbers in non-decreasing order.`,
    (p) => `${p.k} ${p.word} ${p.variable ? 'd’un jeu ' : ''}de ${p.game}, chacun sous ${p.below}, dans l’ordre lexicographique, chacun une fois avec ses nombres en ordre croissant.`],
  'ask.emptypos': ['(empty)', '(vide)'],
  'word.pile': ['pile', 'tas'],
  'word.heap': ['heap', 'tas'],
  'net.down': ['the server cannot be reached', 'le serveur est injoignable'],
};

export const MESSAGES = {en: {}, fr: {}};
for (const [k, [en, fr]] of Object.entries(M)) {
  MESSAGES.en[k] = en;
  MESSAGES.fr[k] = fr;
}

const STORE = 'bouton.lang';

function chosen() {
  try {
    const l = localStorage.getItem(STORE);
    if (l && MESSAGES[l]) return l;
  } catch (e) {
    // no storage: the browser's language
  }
  const langs = (typeof navigator !== 'undefined' && navigator.languages) || [];
  for (const l of langs) {
    const base = String(l).toLowerCase().split('-')[0];
    if (MESSAGES[base]) return base;
  }
  return 'en';
}

export const LANG = chosen();

// The message of key in the page's language, its {placeholders} filled
// from p.
export function t(key, p = {}) {
  let m = MESSAGES[LANG][key];
  if (m === undefined) m = MESSAGES.en[key];
  if (m === undefined) return key;
  if (typeof m === 'function') return m(p);
  return m.replace(/\{(\w+)\}/g, (all, k) => (p[k] === undefined ? all : String(p[k])));
}

// Marks el as holding the server's English text (lang="en" where the
// page is in another language), so that readers and tests know it.
export function mark(el) {
  if (LANG !== 'en' && el && el.setAttribute) el.setAttribute('lang', 'en');
  return el;
}

// Translates the page's static text: the title (data-title on <html>),
// data-i18n (text), data-i18n-html
// (the catalogue's own markup), data-i18n-aria-label, data-i18n-title;
// sets <html lang> and fills the language switch.
export function translatePage(root = document) {
  document.documentElement.lang = LANG;
  const title = document.documentElement.getAttribute('data-title');
  if (title) document.title = t(title);
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.getAttribute('data-i18n'));
  for (const el of root.querySelectorAll('[data-i18n-html]')) el.innerHTML = t(el.getAttribute('data-i18n-html'));
  for (const el of root.querySelectorAll('[data-i18n-aria-label]')) {
    el.setAttribute('aria-label', t(el.getAttribute('data-i18n-aria-label')));
  }
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.getAttribute('data-i18n-title'));
  const sw = document.getElementById('lang');
  if (sw && !sw.options.length) {
    for (const l of Object.keys(MESSAGES)) {
      const o = document.createElement('option');
      o.value = l;
      o.lang = l;
      o.textContent = t('lang.' + l);
      sw.append(o);
    }
    sw.value = LANG;
    // the choice is kept, and the page drawn again in it (the game is in
    // the address, so it survives)
    sw.addEventListener('change', () => {
      try {
        localStorage.setItem(STORE, sw.value);
      } catch (e) {
        // not kept: this page still switches
      }
      location.reload();
    });
  }
}
