/// How many verdicts of one suite run a test may leave out as the loaded machine's rather than the
/// testee's: those the report marks as reached while the suite itself was held up, even run alone
/// (`CaseResult.heldUp`). A CI machine running the whole test suite held up four of the Python
/// client's 97 cases.
public enum HeldUpAllowance {
    public static let cases = 6
}
