// Package view turns a cluster.Snapshot and a canvas size into what the playground draws:
// a layout (where every broker, queue, consumer and producer sits, hit testing), colours and
// marks that tell consumers apart without relying on colour, the rebalance animation's state,
// the click menus, and the triangles of each layer, ready for one DrawTriangles call each.
//
// It imports no ebiten and no syscall/js, so all of it is tested natively; the js/wasm main
// only copies the meshes into ebiten vertices. Text is ASCII drawn from basicfont's 7×13
// bitmap glyphs, packed with a white texel into one small atlas (Atlas), so shapes and text
// of a layer share one texture and one draw call.
package view
