"""A legal Gondor set-up used by several tests."""
SAURON_SETUP = [
    "deploy OA1 0523", "deploy OA2 0723", "deploy OA3 0923", "deploy OA4 1123",
    "deploy LO1 1323", "deploy LO2 1523", "deploy LO3 1723", "deploy LO4 1923", "deploy LO5 2123",
    "deploy LO6 2323", "deploy LO7 2523", "deploy LO8 2723", "deploy LO9 2923",
    "deploy OI1 0524", "deploy OI2 0724", "deploy OI3 0924", "deploy OI4 1124", "deploy OI5 1324",
    "deploy OI6 1524", "deploy OI7 1724", "deploy OI8 1924", "deploy OI9 2124",
    "deploy SC1 1323", "deploy SC2 1923", "deploy SC3 2523",
    "deploy ST1 1523", "deploy ST2 1723", "deploy ST3 2123",
    "deploy NAZ 1923", "deploy GOT 2123",
]
WESTERNESSE_SETUP = [
    "deploy GS1 1809", "deploy GS2 2009", "deploy GS3 1708", "deploy GS4 2108", "deploy GA1 1908",
    "deploy GK1 1911", "deploy GL1 1910", "deploy GX1 1807", "deploy GB1 2007",
    "deploy WC1 1907", "deploy WC2 1806", "deploy WC3 2006",
    "deploy K1 1804", "deploy K2 2004", "deploy K3 1805", "deploy K4 2005", "deploy K5 1902", "deploy K6 2003",
    "deploy GAN 1903", "deploy IMR 1908",
]


def full_setup(game):
    for o in SAURON_SETUP:
        game.play("sauron", o)
    game.play("sauron", "done")
    for o in WESTERNESSE_SETUP:
        game.play("westernesse", o)
    game.play("westernesse", "done")
