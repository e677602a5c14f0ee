#pragma once
// io-internal: what a file system node is, in the words of pimdse's messages ("a FIFO"), for
// the input (input_file.cpp) and output (output_file.cpp) checks alike.

#include <sys/stat.h>

#include <string>

namespace pimdse::io::detail {

inline std::string kind_of(mode_t mode) {
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

}  // namespace pimdse::io::detail
