package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"testing"
)

func deflateBase64(t *testing.T, data []byte) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}
