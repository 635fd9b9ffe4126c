/// What makes two findings the same fault, said so that it does not change with the run: numbers
/// left out of a reason or a testee's last words (a backtrace's addresses, a time, an offset that
/// moves as the input shrinks), so the same fault is one finding however often it fires.
enum FaultSignature {
    static func masked(_ text: String) -> String {
        String(text.map { $0.isNumber ? "#" : $0 })
    }
}
