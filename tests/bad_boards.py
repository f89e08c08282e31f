"""Board files for the tests: a good one, and every kind of bad one with the phrase its error must hold."""

GOOD = """title = "t"
squares = 20
die = 6
ladders = [[3, 11]]
chutes = [[17, 4]]
source = "test"
"""

CASES = [
    (GOOD.replace("[3, 11]", "[3, 25]"), "ladders[0] = [3, 25]: a jump must end on a square from 0 to 20"),
    (GOOD.replace("[3, 11]", "[0, 11]"), "ladders[0] = [0, 11]: a jump must start on a square from 1 to 19"),
    (GOOD.replace("[3, 11]", "[20, 11]"), "ladders[0] = [20, 11]: a jump must start"),
    (GOOD.replace("[[3, 11]]", "[[3, 11], [3, 12]]"), "ladders[1] = [3, 12]: square 3 already starts"),
    (GOOD.replace("[[3, 11]]", "[[3, 11], [11, 15]]"), "ends on square 11, where ladders[1]"),
    (GOOD.replace("[3, 11]", "[11, 3]"), "a ladder goes up; this one goes down"),
    (GOOD.replace("[17, 4]", "[4, 17]"), "a chute goes down; this one goes up"),
    (GOOD.replace("[3, 11]", "[3, 3]"), "from and to are equal"),
    (GOOD.replace("die = 6", "die = 0"), "die: 0 is out of range (a die has 1 to 20 faces)"),
    (GOOD.replace("die = 6", "die = 6000"), "die: 6000 is out of range (a die has 1 to 20 faces)"),
    (GOOD.replace("squares = 20", "squares = 10000000"),
     "squares: 10000000 is out of range (a board has 2 to 1,000 squares)"),
    (GOOD + "dice = 5\n", "dice: 5 is out of range (a roll sums 1 to 4 dice)"),
    (GOOD + "enter_on = []\n", "enter_on: lists no roll (list the rolls that bring a token onto the board"),
    (GOOD + "enter_on = [6, 1, 6]\n", "enter_on: 6 listed more than once (list each roll once)"),
    (GOOD.replace("die = 6", 'die = "six"'), "die: expected a whole number, got 'six'"),
    (GOOD.replace("die = 6", "die = 6.0"), "die: expected a whole number"),
    (GOOD.replace("die = 6", "die = true"), "die: expected a whole number"),
    (GOOD.replace("die = 6", "dye = 6"), "unknown key 'dye' (did you mean 'die'?)"),
    (GOOD.replace("ladders", "ladder"), "unknown key 'ladder' (did you mean 'ladders'?)"),
    (GOOD.replace("squares = 20\n", ""), "squares: missing"),
    (GOOD.replace("[3, 11]", "[3, 11, 12]"), "ladders[0]: each jump is a pair [from, to]"),
    (GOOD.replace("[[3, 11]]", "[3, 11]"), "ladders[0]: expected a list"),
    (GOOD + 'overshoot = "wrap"\n', 'overshoot: must be one of "stay", "bounce", "pass"'),
    (GOOD + "roll_again_on = 7\n", "roll_again_on: must be a face of the die (1 to 6)"),
    (GOOD + "start = 3\n", "start: square 3 is where ladders[0] = [3, 11] starts"),
    (GOOD + "start = 20\n", "start: must be below the last square 20"),
    (GOOD + "snakes = [[9, 2]]\n", "give chutes or snakes"),
    (GOOD.replace("chutes = [[17, 4]]", "chutes = [[14, 1], [15, 1], [16, 1], [17, 1], [18, 1], [19, 1]]"),
     "the game can fail to end"),
    ("title = \n", "line 1, column 9: invalid TOML"),
    ("squares = 20\nsquares = 30\n", "invalid TOML"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "not a text file"),
    ("[[[", "invalid TOML"),
    ('title = "t"\nsquares = 8\ndie = 12\novershoot = "bounce"\nsource = "s"\n', "may have at most 8 faces"),
    (GOOD + '[translations.xx]\ntitle = "x"\n', "translations.xx: not a language code"),
    (GOOD + '[translations.fr-FR-x-y-z]\ntitle = "x"\n', "translations.fr-FR-x-y-z: not a language code"),
    (GOOD + '[translations.FR]\ntitle = "x"\n', "translations.FR: write the language code as fr"),
    (GOOD + '[translations.fr]\ntitel = "x"\n', "translations.fr: unknown key 'titel' (did you mean 'title'?)"),
    (GOOD + '[translations.fr]\ndie = 6\n', "translations.fr: unknown key 'die' (known keys: title, source)"),
    (GOOD + '[translations.fr]\ntitle = ""\n', "translations.fr.title: is empty"),
    (GOOD + '[translations.fr]\nsource = 3\n', "translations.fr.source: expected a string, got 3"),
    (GOOD + 'translations = "fr"\n', "translations: expected a table, got 'fr'"),
    (GOOD + 'translations = { fr = "Le plateau" }\n', "translations.fr: expected a table, got 'Le plateau'"),
    (GOOD + '[translations."a\\nb"]\n', "translations.'a\\nb': not a language code"),
]

