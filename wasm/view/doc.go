// Package view turns a cluster.Snapshot and a canvas size into what the playground draws:
// a layout (where every broker, queue, consumer and producer sits, hit testing), colours and
// marks that tell consumers apart without relying on colour, the rebalance animation's state,
// the click menus, and the triangles of each layer, ready for one DrawTriangles call each.
//
// It imports no ebiten and no syscall/js, so all of it is tested natively; the js/wasm main
// only copies the meshes into ebiten vertices. Layouts are in CSS pixels (layout units; the
// presenter zoom multiplies them), meshes in device pixels. Text comes from the outlines in
// glyphs.bin, rasterised for each scale into an atlas with a white texel (FaceAt), so shapes
// and text of a layer share one texture and one draw call.
package view
