// swift-tools-version: 6.2
import PackageDescription

// libFuzzer targets over DecafWire, the capture reader, the sessions, the listing engine and the fuzzer's own core,
// kept out of the main package so its build stays light.
// Build: swift build -c release --sanitize fuzzer --sanitize address (see run.sh).
let package = Package(
    name: "DecafFuzz",
    dependencies: [.package(name: "Decaf", path: "../..")],
    targets: [
        .executableTarget(name: "FuzzFrameDecoder", dependencies: [.product(name: "DecafWire", package: "Decaf")]),
        .executableTarget(
            name: "FuzzDissector",
            dependencies: [.product(name: "DecafWire", package: "Decaf"), .product(name: "DecafDissect", package: "Decaf")]
        ),
        .executableTarget(
            name: "FuzzCapture",
            dependencies: [.product(name: "DecafCapture", package: "Decaf"), .product(name: "DecafDissect", package: "Decaf")]
        ),
        .executableTarget(
            name: "FuzzRendering",
            dependencies: [.product(name: "DecafCapture", package: "Decaf"), .product(name: "DecafDissect", package: "Decaf")]
        ),
        .executableTarget(name: "FuzzTLV", dependencies: [.product(name: "DecafWire", package: "Decaf")]),
        .executableTarget(
            name: "FuzzClientSession",
            dependencies: [.product(name: "DecafSession", package: "Decaf"), .product(name: "DecafWire", package: "Decaf")]
        ),
        .executableTarget(
            name: "FuzzToxicPipe",
            dependencies: [.product(name: "DecafSession", package: "Decaf"), .product(name: "DecafWire", package: "Decaf")]
        ),
        .executableTarget(
            name: "FuzzMutator",
            dependencies: [.product(name: "DecafSession", package: "Decaf"), .product(name: "DecafWire", package: "Decaf")]
        ),
        .executableTarget(
            name: "FuzzPeerSession",
            dependencies: [.product(name: "DecafSession", package: "Decaf"), .product(name: "DecafWire", package: "Decaf")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
