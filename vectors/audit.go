package vectors

func audit() []generated {
	var out []generated
	raw := func(id, text string) { out = append(out, generated{id, []byte(text)}) }
	// The seed's examples and their edges.
	raw("seed/out-of-order", `{"requested":["A","B"],"results":["B","A"]}`)
	raw("seed/duplicate-missing-unknown", `{"requested":["A","B"],"results":["A","A","C"]}`)
	raw("seed/empty", `{"requested":[],"results":[]}`)
	raw("seed/missing", `{"requested":["A"],"results":[]}`)
	raw("seed/unknown", `{"requested":[],"results":["X"]}`)
	raw("seed/unknown-twice", `{"requested":[],"results":["X","X"]}`)
	raw("seed/duplicate-request", `{"requested":["A","A"],"results":["A"]}`)
	// Open batches: missing only once closed.
	raw("open/pending", `{"requested":["A","B","C"],"results":["B"],"closed":false}`)
	raw("open/unknown-while-open", `{"requested":["A"],"results":["Z"],"closed":false}`)
	raw("open/duplicate-while-open", `{"requested":["A","B"],"results":["A","A"],"closed":false}`)
	raw("open/all-answered", `{"requested":["A"],"results":["A"],"closed":false}`)
	raw("closed/true", `{"requested":["A","B"],"results":["B"],"closed":true}`)
	raw("closed/absent-means-true", `{"requested":["A","B"],"results":["B"]}`)
	raw("closed/null-is-refused", `{"requested":["A","B"],"results":["B"],"closed":null}`)
	raw("closed/wrong-type", `{"requested":["A"],"results":[],"closed":"false"}`)
	// Order, case and bytes.
	raw("order/byte-order", `{"requested":["b"],"results":["a","B","_","é"]}`)
	raw("order/utf16-not-bytes", `{"requested":[],"results":["Ａ","😀","\ue000","z"]}`)
	raw("order/ids-are-case-sensitive", `{"requested":["call_A"],"results":["call_a"]}`)
	raw("order/one-id-unknown-and-duplicate-and-others-missing", `{"requested":["B","A"],"results":["X","X","X"]}`)
	raw("order/many", `{"requested":["r1","r2","r3","r4","r5"],"results":["r5","r3","r9","r1","r3"]}`)
	// Input errors.
	raw("empty-id/requested", `{"requested":["A",""],"results":["A"]}`)
	raw("empty-id/result", `{"requested":["A"],"results":["A",""]}`)
	raw("empty-id/answered-twice", `{"requested":[""],"results":["",""]}`)
	raw("error/empty-request-id-twice", `{"requested":["",""],"results":[]}`)
	raw("error/duplicate-request-among-many", `{"requested":["A","B","C","B"],"results":[]}`)
	raw("error/requested-absent", `{"results":["A"]}`)
	raw("error/results-absent", `{"requested":["A"]}`)
	raw("error/requested-null", `{"requested":null,"results":[]}`)
	raw("error/results-null", `{"requested":[],"results":null}`)
	raw("error/requested-wrong-type", `{"requested":"A","results":[]}`)
	raw("error/result-id-a-number", `{"requested":["1"],"results":[1]}`)
	raw("error/result-id-null", `{"requested":["A"],"results":[null]}`)
	raw("error/unknown-field", `{"requested":["A"],"results":["A"],"result":["B"]}`)
	raw("error/duplicate-field", `{"requested":["A"],"results":["A"],"results":[]}`)
	raw("error/not-an-object", `[["A"],["A"]]`)
	return out
}

func outcome() []generated {
	var out []generated
	raw := func(id, text string) { out = append(out, generated{id, []byte(text)}) }
	raw("class/found", `{"result":{"isError":false,"found":true,"content":[{"type":"text","text":"note n-7"}]}}`)
	raw("class/not-found", `{"result":{"isError":false,"found":false}}`)
	raw("class/invalid-arguments", `{"result":{"isError":true,"errorKind":"invalid_arguments"}}`)
	raw("class/invalid-arguments-legacy-32602", `{"error":{"code":-32602,"message":"Invalid params"}}`)
	raw("class/permission-denied", `{"result":{"isError":true,"errorKind":"permission_denied"}}`)
	raw("class/execution-error", `{"result":{"isError":true,"errorKind":"execution_error"}}`)
	raw("class/execution-error-without-kind", `{"result":{"isError":true}}`)
	raw("class/protocol-error-parse", `{"error":{"code":-32700,"message":"Parse error"}}`)
	raw("class/protocol-error-method", `{"error":{"code":-32601,"message":"Method not found"}}`)
	raw("class/protocol-error-internal", `{"error":{"code":-32603}}`)
	raw("class/protocol-error-server-defined", `{"error":{"code":-32000,"message":"Server error"}}`)
	raw("class/error-null-result", `{"error":{"code":-32601},"result":null}`)
	raw("class/result-null-error", `{"error":null,"result":{"isError":false,"found":true}}`)
	raw("class/content-is-not-read", `{"result":{"isError":false,"found":false,"content":[{"type":"text","text":"found it!"}]}}`)
	raw("error/neither", `{}`)
	raw("error/both", `{"error":{"code":-32603},"result":{"isError":false,"found":true}}`)
	raw("error/unknown-kind", `{"result":{"isError":true,"errorKind":"rate_limited"}}`)
	raw("error/kind-on-success", `{"result":{"isError":false,"errorKind":"execution_error","found":true}}`)
	raw("error/found-absent-on-success", `{"result":{"isError":false}}`)
	raw("error/found-on-error", `{"result":{"isError":true,"found":false}}`)
	raw("error/is-error-a-string", `{"result":{"isError":"true","errorKind":"execution_error"}}`)
	raw("error/code-a-string", `{"error":{"code":"-32602"}}`)
	raw("error/unknown-field", `{"result":{"isError":false,"found":true,"isErorr":true}}`)
	raw("error/not-an-object", `"found"`)
	return out
}
