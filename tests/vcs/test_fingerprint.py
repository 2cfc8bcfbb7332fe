from vcs_support import PW

from dualrag.review.fingerprint import fingerprint, loose_key, message_gist, normalise_code


def test_fingerprint_ignores_line_numbers_whitespace_and_small_rewording():
    code = ['  String pw = "secret";']
    moved = PW.model_copy(update={"line": 30})
    assert fingerprint(PW, code) == fingerprint(moved, ['String   pw = "secret";  '])
    reworded = PW.model_copy(update={"message": "A password-literal is in the code (3)!"})
    assert fingerprint(PW, code) == fingerprint(reworded, code)
    assert fingerprint(PW, code) != fingerprint(PW, ['String pw = "other";'])
    other = PW.model_copy(update={"message": "Totally different complaint about naming."})
    assert fingerprint(PW, code) != fingerprint(other, code) and loose_key(PW, code) == loose_key(other, code)
    assert normalise_code(["  a  b ", "", "c"]) == "a b\nc" and message_gist("The 3 'x' values") == "x values"
