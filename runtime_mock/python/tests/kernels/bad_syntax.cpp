// Does not compile: the device must report a kernel build error.
void kernel_main() {
    this is not C++;
}
