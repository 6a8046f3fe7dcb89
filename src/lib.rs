//! vqgraph facade (filled in below).
