(module
  (import "m" "mem" (memory 1))
  ;; walk(count, len, v3, out): index entries from offset 0 of memory, which holds len bytes of
  ;; the index file starting at an entry. Steps through at most count entries, stopping before
  ;; one that does not end within len. For each entry whose path ends in ".md", its offset and the
  ;; offset of the NUL ending its path go to out+8+8k. At out: the offset where the walk stopped;
  ;; at out+4: the entries stepped through. Returns k, or -1 for an entry in conflict, a directory
  ;; entry (sparse index), an extended entry in version 2, or an empty path.
  (func (export "walk") (param $count i32) (param $len i32) (param $v3 i32) (param $out i32) (result i32)
    (local $i i32) (local $off i32) (local $flags i32) (local $head i32) (local $start i32)
    (local $plen i32) (local $stop i32) (local $k i32) (local $next i32)
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (br_if $done (i32.gt_u (i32.add (local.get $off) (i32.const 64)) (local.get $len)))
        (local.set $flags (i32.or
          (i32.shl (i32.load8_u offset=60 (local.get $off)) (i32.const 8))
          (i32.load8_u offset=61 (local.get $off))))
        (if (i32.and (local.get $flags) (i32.const 0x3000)) (then (return (i32.const -1))))
        (if (i32.eq (i32.and (i32.load8_u offset=26 (local.get $off)) (i32.const 0xf0)) (i32.const 0x40)) (then (return (i32.const -1))))
        (local.set $head (i32.const 62))
        (if (i32.and (local.get $flags) (i32.const 0x4000))
          (then
            (if (i32.eqz (local.get $v3)) (then (return (i32.const -1))))
            (local.set $head (i32.const 64))))
        (local.set $start (i32.add (local.get $off) (local.get $head)))
        (local.set $plen (i32.and (local.get $flags) (i32.const 0xfff)))
        (if (i32.eq (local.get $plen) (i32.const 0xfff))
          (then
            (local.set $stop (local.get $start))
            (block $found
              (loop $scan
                (br_if $done (i32.ge_u (local.get $stop) (local.get $len)))
                (br_if $found (i32.eqz (i32.load8_u (local.get $stop))))
                (local.set $stop (i32.add (local.get $stop) (i32.const 1)))
                (br $scan)))
            (local.set $plen (i32.sub (local.get $stop) (local.get $start)))))
        (if (i32.eqz (local.get $plen)) (then (return (i32.const -1))))
        (local.set $stop (i32.add (local.get $start) (local.get $plen)))
        (local.set $next (i32.add (local.get $off)
          (i32.and (i32.add (i32.add (local.get $head) (local.get $plen)) (i32.const 8)) (i32.const -8))))
        (br_if $done (i32.gt_u (local.get $next) (local.get $len)))
        (if (i32.load8_u (local.get $stop)) (then (return (i32.const -1))))
        (if (i32.and
              (i32.and
                (i32.eq (i32.load8_u (i32.sub (local.get $stop) (i32.const 3))) (i32.const 0x2e))
                (i32.eq (i32.load8_u (i32.sub (local.get $stop) (i32.const 2))) (i32.const 0x6d)))
              (i32.eq (i32.load8_u (i32.sub (local.get $stop) (i32.const 1))) (i32.const 0x64)))
          (then
            (i32.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))) (local.get $off))
            (i32.store offset=12 (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))) (local.get $stop))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))))
        (local.set $off (local.get $next))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $step)))
    (i32.store (local.get $out) (local.get $off))
    (i32.store offset=4 (local.get $out) (local.get $i))
    (local.get $k)))
