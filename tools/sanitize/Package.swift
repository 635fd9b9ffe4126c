// swift-tools-version: 6.2
import PackageDescription

// The listing engine's tests (parallel rendering, capture batches, TCP reassembly: the code that
// uses threads, raw memory and exclusivity opt-outs) built on their own, so they can run under
// ThreadSanitizer and AddressSanitizer without building the whole package with them. The test
// files are the main package's own, linked here. Run: tools/sanitize/run.sh (make sanitize).
let package = Package(
    name: "DecafSanitize",
    dependencies: [.package(name: "Decaf", path: "../..")],
    targets: [
        .testTarget(
            name: "EngineTests",
            dependencies: [
                .product(name: "DecafCapture", package: "Decaf"), .product(name: "DecafDissect", package: "Decaf"),
                .product(name: "DecafVectors", package: "Decaf"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
