import Glibc

/// A password the user gives once: typed at a prompt without echo on a terminal, else the
/// first line of standard input (`printf %s "$PASS" | almanac …`). Never printed.
enum PasswordInput {
    static func read(prompt: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while Glibc.read(STDIN_FILENO, &byte, 1) == 1, byte != UInt8(ascii: "\n"), bytes.count < 4_096 { bytes.append(byte) }
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            return String(decoding: bytes, as: UTF8.self)
        }
        Terminal.write(2, prompt)
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            throw CLIError.usage("cannot turn off the terminal's echo to read a password", "give it on standard input instead")
        }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            Terminal.write(2, "\n")
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(STDIN_FILENO, &byte, 1) == 1, byte != UInt8(ascii: "\n"), bytes.count < 4_096 { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
