/// Why an option's value was refused, in the user's words. ArgumentParser puts it after the option's
/// name: "The value 'nan' is invalid for '--timeout <duration>': not a number; ...".
struct ArgumentProblem: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
