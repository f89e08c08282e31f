"""What each page says, from the records: the board pages and the others, their tables, charts and still images,
the numbers in words and the downloads. Nothing here knows the docs tree, the engine or the language's build."""
