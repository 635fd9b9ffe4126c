// swift-tools-version: 6.1
import PackageDescription

// Codec benchmarks with a C baseline measured in the same run. A side package, so the main build
// stays light. Run: make bench (from the repository root), or swift package benchmark here.
let package = Package(
    name: "DecafBench",
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "Decaf", path: "../.."),
    ],
    targets: [
        .target(name: "CBaseline", linkerSettings: [.linkedLibrary("deflate")]),
        .systemLibrary(name: "ZlibReference", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .executableTarget(
            name: "DecafBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DecafWire", package: "Decaf"),
                "CBaseline", "ZlibReference",
            ],
            path: "Benchmarks/DecafBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
