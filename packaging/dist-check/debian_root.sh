# Sourced by the checks that run something in a fresh Debian root (dist-check/run.sh,
# old-glibc/run.sh): with `root` and `work` set, empties WORK and removes the root however the
# script ends.
#
# Only fresh mounts go into a root (proc, a tmpfs for shared memory), never the host's /dev; and
# removal stays on the root's own file system, so a mount that would not go cannot take host
# files with it.
unmount_root() {
  for mount in "$root/dev/shm" "$root/proc"; do
    if mountpoint -q "$mount" 2>/dev/null; then umount "$mount" || umount -l "$mount"; fi
  done
}
remove_root() {
  unmount_root
  rm -rf --one-file-system "$root"
}
trap remove_root EXIT
unmount_root
rm -rf --one-file-system "$work"
mkdir -p "$work"
