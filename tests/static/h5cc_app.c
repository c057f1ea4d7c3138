/* h5cc_app.c - a program built with HDF5's h5cc, which links libhdf5.a
 * into it (h5cc.sh). */
#include <hdf5.h>
#include <stdio.h>

int main(void)
{
    int data[4] = {1, 2, 3, 4};
    hsize_t dims[1] = {4};
    hid_t file = H5Fcreate("h5cc_app.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t set = H5Dcreate2(file, "d", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    herr_t w = H5Dwrite(set, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(set);
    H5Sclose(space);
    H5Fclose(file);
    printf("written: %d\n", w >= 0);
    return 0;
}
