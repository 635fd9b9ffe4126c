import DecafTestSupport
import Foundation
import Testing

/// toxiproxy's own Python client (toxiproxy-python, from PyPI) drives `decaf proxy --control` as it
/// would drive toxiproxy: every call it makes, with the answers it expects.
@Suite("toxiproxy-python against decaf proxy", .timeLimit(.minutes(2)),
       .enabled(if: PythonPackage.toxiproxy.isInstalled, Comment(rawValue: PythonPackage.toxiproxy.skipReason)))
struct ToxiproxyPythonTests {
    /// The session: an echo server of its own, a proxy created through the API in front of it,
    /// toxics added, listed and removed, the proxy taken down and up, populate, reset, version and
    /// the client's errors for a conflict and a bad toxic. Prints "ok" when every check held.
    static let session = #"""
    import socket, sys, threading, time
    from toxiproxy import Toxiproxy
    from toxiproxy.exceptions import ProxyExists, InvalidToxic, NotFound

    host, port = sys.argv[1].rsplit(":", 1)
    server = Toxiproxy()
    server.update_api_consumer(host, int(port))

    echo = socket.socket(); echo.bind(("127.0.0.1", 0)); echo.listen()
    def serve():
        while True:
            connection, _ = echo.accept()
            def pump(c=connection):
                while (data := c.recv(4096)):
                    c.sendall(data)
                c.close()
            threading.Thread(target=pump, daemon=True).start()
    threading.Thread(target=serve, daemon=True).start()
    upstream = "127.0.0.1:%d" % echo.getsockname()[1]

    def roundtrip(listen, payload=b"ping"):
        h, p = listen.rsplit(":", 1)
        with socket.create_connection((h, int(p)), timeout=10) as c:
            c.sendall(payload)
            got = b""
            while len(got) < len(payload):
                chunk = c.recv(4096)
                if not chunk:
                    break
                got += chunk
            return got

    assert server.running(), "running() connects to the API"
    assert b"version" in server.version()
    assert "decaf" in server.proxies(), server.proxies()
    proxy = server.create(upstream=upstream, name="echo")
    assert proxy.listen and not proxy.listen.endswith(":0"), proxy.listen
    try:
        server.create(upstream=upstream, name="echo")
        raise AssertionError("a second create must raise ProxyExists")
    except ProxyExists:
        pass
    assert roundtrip(proxy.listen) == b"ping"

    proxy.add_toxic(type="latency", attributes={"latency": 300, "jitter": 0})
    proxy.add_toxic(type="bandwidth", stream="upstream", name="slow_up", toxicity=0.5, attributes={"rate": 1000})
    toxics = proxy.toxics()
    assert set(toxics) == {"latency_downstream", "slow_up"}, toxics
    assert toxics["latency_downstream"].attributes["latency"] == 300
    assert toxics["slow_up"].toxicity == 0.5 and toxics["slow_up"].stream == "upstream"
    started = time.monotonic()
    assert roundtrip(proxy.listen) == b"ping"
    assert time.monotonic() - started >= 0.3, "the latency toxic delays the echo"
    try:
        proxy.add_toxic(type="latency", attributes={"latency": 1})
        raise AssertionError("the same toxic again must raise ProxyExists (409)")
    except ProxyExists:
        pass
    try:
        proxy.add_toxic(type="latency", stream="sideways")
        raise AssertionError("a bad stream must raise InvalidToxic (400)")
    except InvalidToxic:
        pass
    assert proxy.destroy_toxic("latency_downstream")
    assert set(proxy.toxics()) == {"slow_up"}
    assert proxy.get_toxic("slow_up") is not None and proxy.get_toxic("nope") is None

    with proxy.down():
        assert server.get_proxy("echo").enabled is False
        try:
            got = roundtrip(proxy.listen)
        except OSError:
            got = b""
        assert got == b"", "a disabled proxy passes nothing"
    assert server.get_proxy("echo").enabled is True
    assert roundtrip(proxy.listen) == b"ping"

    again = server.populate([{"name": "echo", "upstream": upstream, "listen": proxy.listen}])
    assert again == [] and set(server.get_proxy("echo").toxics()) == {"slow_up"}, "populating what is there changes nothing"
    made = server.populate([{"name": "other", "upstream": upstream, "listen": "127.0.0.1:0"}])
    assert [p.name for p in made] == ["other"]

    assert server.reset()
    assert server.get_proxy("echo").toxics() == {}
    assert proxy.destroy()
    try:
        proxy.toxics()
        raise AssertionError("a deleted proxy must raise NotFound (404)")
    except NotFound:
        pass
    server.destroy(server.get_proxy("other"))
    assert set(server.proxies()) == {"decaf"}
    print("ok")
    """#

    @Test("every call of the client works against decaf proxy --control, with the answers it expects")
    func session() async throws {
        let proxy = try RunningChild(decaf: ["proxy", "127.0.0.1:0", "127.0.0.1:9", "--control", "127.0.0.1:0"])
        let control = try await proxy.outputLine(containing: "control API on http://")
        let address = try #require(control.components(separatedBy: "http://").last.map { String($0.prefix { $0 != "," }) })
        let run = try await ChildProcess.run(URL(filePath: ExternalTool.python3.path!), ["-c", Self.session, address])
        _ = try await proxy.stop()
        #expect(run.status == 0 && String(decoding: run.output, as: UTF8.self) == "ok\n",
                "\(String(decoding: run.output, as: UTF8.self)) \(String(decoding: run.error, as: UTF8.self))")
    }
}
